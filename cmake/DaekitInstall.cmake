# `cmake --install build --prefix P`: the host, the core library (versioned), the
# public headers, the family kits, the plugins under lib/daekit/abi<MAJOR>, the docs, a CMake
# package (find_package(daekit CONFIG)) and a pkg-config file.
include(CMakePackageConfigHelpers)

set(DAEKIT_INSTALL_PLUGIN_SUBDIR ${CMAKE_INSTALL_LIBDIR}/daekit/abi${DAEKIT_ABI_MAJOR})
set(DAEKIT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/daekit)

install(TARGETS daekit_sdk daekit_core daekit_api daekit_fit EXPORT daekitTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# One include/daekit from the three libraries' folders: the paths authors include are unchanged.
install(DIRECTORY sdk/include/daekit core/include/daekit lib/include/daekit DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${DAEKIT_GENERATED_INCLUDE_DIR}/daekit/eigen_build.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/daekit)
# The family kits (static libraries daekit::<family>_kit and their headers under
# daekit/kits/<family>/): a third-party solver builds a variant of a family on them.
get_property(DAEKIT_FAMILY_KITS GLOBAL PROPERTY DAEKIT_KITS)
foreach(kit IN LISTS DAEKIT_FAMILY_KITS)
  install(TARGETS daekit_${kit}_kit EXPORT daekitTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY plugins/${kit}/kit/include/daekit DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endforeach()
# The core opens its UMFPACK module from its own folder (core/src/numerics/sparse_lu.cpp).
install(TARGETS daekit_umfpack LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET daekit_amg)
  install(TARGETS daekit_amg LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# The petsc plugin opens its engine two folders above itself (plugins/petsc/plugin.cpp).
if(TARGET daekit_petsc_ts)
  install(TARGETS daekit_petsc_ts LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()

set_target_properties(daekit PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS daekit RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The in-tree plugins; their libraries find libdaekit_core two folders up.
get_property(DAEKIT_IN_TREE_PLUGINS GLOBAL PROPERTY DAEKIT_PLUGINS)
foreach(plugin IN LISTS DAEKIT_IN_TREE_PLUGINS)
  set_target_properties(${plugin} PROPERTIES INSTALL_RPATH "$ORIGIN/../..")
  install(TARGETS ${plugin} LIBRARY DESTINATION ${DAEKIT_INSTALL_PLUGIN_SUBDIR})
endforeach()

install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

install(EXPORT daekitTargets NAMESPACE daekit:: DESTINATION ${DAEKIT_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/daekitConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/daekitConfig.cmake
                              INSTALL_DESTINATION ${DAEKIT_INSTALL_CMAKEDIR}
                              PATH_VARS DAEKIT_INSTALL_PLUGIN_SUBDIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/daekitConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/daekitConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/daekitConfigVersion.cmake
              cmake/DaekitPlugin.cmake
        DESTINATION ${DAEKIT_INSTALL_CMAKEDIR})

# From <prefix>/<libdir>/pkgconfig back to <prefix> ("../.." for lib, "../../.." for lib/<triplet>).
file(RELATIVE_PATH DAEKIT_PC_TO_PREFIX "/prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/prefix")
string(REGEX REPLACE "/$" "" DAEKIT_PC_TO_PREFIX "${DAEKIT_PC_TO_PREFIX}")
configure_file(cmake/daekit.pc.in ${CMAKE_CURRENT_BINARY_DIR}/daekit.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/daekit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

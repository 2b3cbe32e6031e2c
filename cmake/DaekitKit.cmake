# A method family's kit (in-tree only; installed kits are imported targets):
#   daekit_add_family_kit(NAME <family> SOURCES <files...>)
# builds plugins/<family>/kit into the static library daekit::<family>_kit, whose headers
# (kit/include/daekit/kits/<family>/) are installed with the SDK so that third parties can
# build a variant of the family (a new tableau, other settings) on the same step.
# Position-independent and with hidden visibility: it is linked into plugins, which
# export only the daekit entry points (docs/abi.md).
function(daekit_add_family_kit)
  cmake_parse_arguments(ARG "" "NAME" "SOURCES" ${ARGN})
  set(target daekit_${ARG_NAME}_kit)
  add_library(${target} STATIC ${ARG_SOURCES})
  add_library(daekit::${ARG_NAME}_kit ALIAS ${target})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/kit/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC daekit::core)
  set_target_properties(${target} PROPERTIES
    EXPORT_NAME ${ARG_NAME}_kit
    POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  daekit_warnings(${target})
  set_property(GLOBAL APPEND PROPERTY DAEKIT_KITS ${ARG_NAME})
endfunction()

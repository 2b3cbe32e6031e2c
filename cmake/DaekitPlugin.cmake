# Helpers that give every plugin the flags the ABI policy asks for (docs/abi.md):
# hidden visibility (only the daekit aliases are exported), no undefined symbols,
# and the output folder whose name carries the ABI major.

function(_daekit_plugin_common target)
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_STANDARD 20
    CXX_STANDARD_REQUIRED ON
    POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${DAEKIT_PLUGIN_OUTPUT_DIR})
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  if(COMMAND daekit_warnings)
    daekit_warnings(${target})
  endif()
endfunction()

# Plugins built into the default folder are collected in the global property
# DAEKIT_PLUGINS (installed, and built before the tests); OUTPUT_DIR ones are not.
#
# daekit_add_problem_plugin(NAME <name> SOURCES <files...> [DATA <var>=<file> ...] [OUTPUT_DIR <dir>])
# Problem plugins need only the header-only SDK. Each DATA entry embeds a text file
# (e.g. a test set reference) as `inline constexpr char <var>_text[]` in "<var>.inc".
function(daekit_add_problem_plugin)
  cmake_parse_arguments(ARG "" "NAME;OUTPUT_DIR" "SOURCES;DATA" ${ARGN})
  add_library(${ARG_NAME} MODULE ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE daekit::sdk)
  _daekit_plugin_common(${ARG_NAME})
  if(COMMAND daekit_use_precompiled_headers)  # the tree's own build only
    daekit_use_precompiled_headers(${ARG_NAME} problem)
  endif()
  if(ARG_OUTPUT_DIR)
    set_target_properties(${ARG_NAME} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
  else()
    set_property(GLOBAL APPEND PROPERTY DAEKIT_PLUGINS ${ARG_NAME})
  endif()
  set(gen_dir ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}_generated)
  foreach(item IN LISTS ARG_DATA)
    string(REPLACE "=" ";" parts "${item}")
    list(GET parts 0 var)
    list(GET parts 1 file)
    get_filename_component(file "${file}" ABSOLUTE)
    file(READ "${file}" content)
    file(CONFIGURE OUTPUT ${gen_dir}/${var}.inc
         CONTENT "// Generated from ${file}; edit the data file, not this.\n#pragma once\ninline constexpr char ${var}_text[] = R\"daekit_data(@content@)daekit_data\";\n"
         @ONLY)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
  endforeach()
  target_include_directories(${ARG_NAME} PRIVATE ${gen_dir})
endfunction()

# daekit_add_solver_plugin(NAME <name> SOURCES <files...> [KITS <family>...] [OUTPUT_DIR <dir>])
# Solver plugins link the core library for the shared numerics, and each named family
# kit (daekit::<family>_kit: rosenbrock, radau, bdf; docs/authoring/solver.md) whose
# method code they build on. A kit is a static library: its code becomes part of the
# plugin, so the plugin needs nothing at run time beyond libdaekit_core.
function(daekit_add_solver_plugin)
  cmake_parse_arguments(ARG "" "NAME;OUTPUT_DIR" "SOURCES;KITS" ${ARGN})
  add_library(${ARG_NAME} MODULE ${ARG_SOURCES})
  target_link_libraries(${ARG_NAME} PRIVATE daekit::core)
  foreach(kit IN LISTS ARG_KITS)
    target_link_libraries(${ARG_NAME} PRIVATE daekit::${kit}_kit)
  endforeach()
  _daekit_plugin_common(${ARG_NAME})
  if(ARG_OUTPUT_DIR)
    set_target_properties(${ARG_NAME} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR})
  else()
    set_property(GLOBAL APPEND PROPERTY DAEKIT_PLUGINS ${ARG_NAME})
  endif()
endfunction()

# Precompiled headers for the tree's own build. Parsing the headers everything includes
# (Eigen, Boost.DLL and the SDK for problem plugins; Catch2 and the library for tests) was
# half of each file's compile time (gcc -ftime-report: parsing 40-53 %); a CI run builds
# the tree twice. Problem plugins are one file each, so they share one PCH compiled with
# their flags (REUSE_FROM an anchor target); a test executable has several files and
# builds its own. Third-party builds through the installed DaekitPlugin.cmake never see
# this file: their plugins compile exactly as before. docs/architecture.md, "Build time".
option(DAEKIT_PRECOMPILED_HEADERS "Parse the headers the tree's plugins and tests share once per build" ON)

# The anchor every problem plugin reuses: compiled with a problem plugin's flags.
function(_daekit_problem_pch_anchor)
  if(TARGET daekit_pch_problem)
    return()
  endif()
  add_library(daekit_pch_problem OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cpp)
  target_link_libraries(daekit_pch_problem PRIVATE daekit::sdk)
  set_target_properties(daekit_pch_problem PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON
                        POSITION_INDEPENDENT_CODE ON CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
  daekit_warnings(daekit_pch_problem)
  target_precompile_headers(daekit_pch_problem PRIVATE <daekit/sdk/export_problem.hpp>)
endfunction()

# kind: problem (a problem plugin) or test (a test executable). A problem plugin whose
# definitions differ from the shared PCH's (fmu: Boost.Filesystem's BOOST_FILESYSTEM_DYN_LINK)
# marks its sources SKIP_PRECOMPILE_HEADERS (unsetting the reuse crashed CMake 3.25).
function(daekit_use_precompiled_headers target kind)
  if(NOT DAEKIT_PRECOMPILED_HEADERS)
    return()
  endif()
  if(kind STREQUAL "problem")
    # Not in the sanitizer build, whose problem plugins are built with two sets of flags
    # (cmake/DaekitSanitizer.cmake) and gained nothing from it: 31 s of CPU with, 28 s
    # without (andrews.cpp, instrumented).
    if(DAEKIT_SANITIZE)
      return()
    endif()
    _daekit_problem_pch_anchor()
    target_precompile_headers(${target} REUSE_FROM daekit_pch_problem)
  elseif(kind STREQUAL "test")
    target_precompile_headers(${target} PRIVATE <catch2/catch.hpp> <daekit/daekit.hpp>)
  else()
    message(FATAL_ERROR "daekit_use_precompiled_headers: unknown kind '${kind}'")
  endif()
endfunction()

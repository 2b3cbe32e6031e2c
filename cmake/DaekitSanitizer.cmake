# The sanitizer build (-DDAEKIT_SANITIZE=ON): AddressSanitizer and UBSan on the library, the
# host, the solver plugins and the problem plugins that carry the SDK's code paths; code
# whose instrumentation checks nothing the others do not is built without it (below).
option(DAEKIT_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)

# The instrumentation itself, separate from the flags every file of the build gets, so that
# daekit_not_instrumented can take exactly these away.
set(DAEKIT_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined)

if(DAEKIT_SANITIZE)
  # -g1 (functions and line tables: the reports keep file:line) instead of the full -g of
  # RelWithDebInfo, and -O1 (what AddressSanitizer's documentation asks for) instead of its
  # -O2: the sanitizer build is most of a CI run. Its heaviest file (numerics/consistency.cpp)
  # took 187 s of CPU with -O2 -g, 117 s with -O2 -g1 and 76 s with -O1 -g1 (measured on a
  # loaded machine: the ratios, not the seconds). Coming after the configuration's flags,
  # these win.
  add_compile_options(${DAEKIT_SANITIZER_FLAGS} -fno-omit-frame-pointer -O1 -g1)
  # Every executable and plugin links the runtime, instrumented or not.
  add_link_options(-fsanitize=address,undefined)
endif()

# Compile a target's own files without the instrumentation (it still links the runtime, and
# the instrumented code it calls is still checked). For code that only drives instrumented
# code from outside: the command-line tests, which start the host as a child process, and
# the test harness. Instrumentation doubles a file's compile time (a problem plugin: 28 s of
# CPU with it, 15 s without; docs/architecture.md, "Build time").
function(daekit_not_instrumented)
  if(NOT DAEKIT_SANITIZE)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    get_target_property(options ${target} COMPILE_OPTIONS)
    if(options)
      list(REMOVE_ITEM options ${DAEKIT_SANITIZER_FLAGS})
      set_target_properties(${target} PROPERTIES COMPILE_OPTIONS "${options}")
    endif()
  endforeach()
endfunction()


# Writes OUT (a header defining DAEKIT_COMMIT) from `git describe` of SRC, touching the
# file only when the text changes, so a build rebuilds only what depends on it when the
# commit does. Run at every build (host/CMakeLists.txt), not at configure time: a commit
# made after configuring must not be recorded as the one before.
execute_process(COMMAND git -C "${SRC}" rev-parse HEAD OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE failed ERROR_QUIET)
if(failed)
  set(commit "unknown")
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no OUTPUT_VARIABLE changes ERROR_QUIET)
  if(changes)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "#pragma once\n#define DAEKIT_COMMIT \"${commit}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()

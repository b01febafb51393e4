# Sanitizer builds: no sanitizer report from a process a test starts goes unnoticed, even
# where the test looks at the process's output and not at its exit status (a leak found at
# exit changes only the status). frd_sanitizer_reports_guard() sends the reports of every test
# of the calling directory into one folder (log_path, appended to ASAN_OPTIONS, UBSAN_OPTIONS
# and TSAN_OPTIONS after the test's own ENVIRONMENT), behind a fixture: the test
# sanitizer_reports_clear empties the folder before them, sanitizer_reports fails after
# them if it holds any report, and prints them (tests/support/sanitizer_reports.sh). A
# process's report then goes to its file instead of its stderr.
set(FRD_SANITIZER_REPORTS_DIR ${PROJECT_BINARY_DIR}/sanitizer-reports)

function(frd_sanitizer_reports_guard)
  if(NOT FRD_SANITIZE)
    return()
  endif()
  set(script ${PROJECT_SOURCE_DIR}/tests/support/sanitizer_reports.sh)
  set(dir ${FRD_SANITIZER_REPORTS_DIR})
  get_property(defined GLOBAL PROPERTY FRD_SANITIZER_REPORTS_TESTS)
  if(NOT defined) # the fixture's two tests, once per build tree
    set_property(GLOBAL PROPERTY FRD_SANITIZER_REPORTS_TESTS ON)
    add_test(NAME sanitizer_reports_clear COMMAND ${script} clear ${dir})
    add_test(NAME sanitizer_reports COMMAND ${script} check ${dir})
    set_tests_properties(sanitizer_reports_clear PROPERTIES FIXTURES_SETUP sanitizer_reports)
    set_tests_properties(sanitizer_reports PROPERTIES FIXTURES_CLEANUP sanitizer_reports)
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t ${tests})
    if(t MATCHES "^sanitizer_reports")
      continue()
    endif()
    set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED sanitizer_reports)
    foreach(var ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS)
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT_MODIFICATION
        "${var}=string_append::log_path=${dir}/${t}")
    endforeach()
  endforeach()
endfunction()

# The version of this build: the release from project(VERSION) and `git describe` of the source
# tree, taken at configure time into a generated header (layoutbench_version.h) that the programs
# print for --version. A commit re-runs the configure step at the next build, so the describe
# follows HEAD. Without git (a source tarball) the describe is empty and the programs print the
# release alone; packagers may set LAYOUTBENCH_GIT_DESCRIBE themselves.
set(LAYOUTBENCH_GIT_DESCRIBE "" CACHE STRING
    "What --version prints after the release; empty: git describe of the source tree")

set(describe "${LAYOUTBENCH_GIT_DESCRIBE}")
if(describe STREQUAL "")
    find_package(Git QUIET)
    if(GIT_FOUND)
        execute_process(COMMAND "${GIT_EXECUTABLE}" describe --tags --always --dirty
                        WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                        OUTPUT_VARIABLE describe OUTPUT_STRIP_TRAILING_WHITESPACE
                        ERROR_QUIET RESULT_VARIABLE describe_result)
        if(NOT describe_result EQUAL 0)
            set(describe "")
        endif()
        execute_process(COMMAND "${GIT_EXECUTABLE}" log -1 --format=%ct
                        WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                        OUTPUT_VARIABLE commit_time OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        # Re-configure when HEAD moves: HEAD itself (a branch switch) and the branch's ref
        # (a commit). A packed ref has no file of its own; then only a branch switch is seen.
        execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --symbolic-full-name HEAD
                        WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                        OUTPUT_VARIABLE head_ref OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
        foreach(ref HEAD ${head_ref})
            execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --path-format=absolute
                                    --git-path "${ref}"
                            WORKING_DIRECTORY "${PROJECT_SOURCE_DIR}"
                            OUTPUT_VARIABLE ref_file OUTPUT_STRIP_TRAILING_WHITESPACE
                            ERROR_QUIET)
            if(ref_file AND EXISTS "${ref_file}")
                set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY
                             CMAKE_CONFIGURE_DEPENDS "${ref_file}")
            endif()
        endforeach()
    endif()
endif()

# The date generated files (manual pages) carry: SOURCE_DATE_EPOCH when set, else the last
# commit's time, else none (the tools' own: today).
if(DEFINED ENV{SOURCE_DATE_EPOCH})
    set(LAYOUTBENCH_SOURCE_DATE_EPOCH "$ENV{SOURCE_DATE_EPOCH}")
elseif(commit_time MATCHES "^[0-9]+$")
    set(LAYOUTBENCH_SOURCE_DATE_EPOCH "${commit_time}")
else()
    set(LAYOUTBENCH_SOURCE_DATE_EPOCH "")
endif()

if(describe STREQUAL "")
    set(LAYOUTBENCH_VERSION_TEXT "${PROJECT_VERSION}")
else()
    set(LAYOUTBENCH_VERSION_TEXT "${PROJECT_VERSION} (git ${describe})")
endif()
set(LAYOUTBENCH_DESCRIBE "${describe}")
configure_file("${CMAKE_CURRENT_LIST_DIR}/layoutbench_version.h.in"
               "${PROJECT_BINARY_DIR}/generated/layoutbench_version.h" @ONLY)

add_library(layoutbench_version INTERFACE)
target_include_directories(layoutbench_version INTERFACE "${PROJECT_BINARY_DIR}/generated")

# Only the store writes SQL: its folder, engine/store/ (the store's modules and the journal, over
# the thin layer in sqlite.*), holds every statement, and everything else calls the store's named
# methods. Tests reach below the store only through tests/support/raw_sql.*, for the few that
# must corrupt or search a database on purpose. Two checks, at configure time:
#  - no statement is prepared or executed, and the connection is not reached, outside those files
#    (exec() without arguments is Qt's event loop or a dialog, not SQL);
#  - no library or program but layoutbench_store (and the tests that compile raw_sql.cpp) links
#    SQLite.
function(layoutbench_check_sql_ownership)
    set(allowed tests/support/raw_sql.h tests/support/raw_sql.cpp)
    file(GLOB_RECURSE sources RELATIVE "${PROJECT_SOURCE_DIR}"
         "${PROJECT_SOURCE_DIR}/app/*.cpp" "${PROJECT_SOURCE_DIR}/app/*.h"
         "${PROJECT_SOURCE_DIR}/bench/*.cpp" "${PROJECT_SOURCE_DIR}/bench/*.h"
         "${PROJECT_SOURCE_DIR}/engine/*.cpp" "${PROJECT_SOURCE_DIR}/engine/*.h"
         "${PROJECT_SOURCE_DIR}/probes/*.cpp" "${PROJECT_SOURCE_DIR}/probes/*.h"
         "${PROJECT_SOURCE_DIR}/reports/*.cpp" "${PROJECT_SOURCE_DIR}/reports/*.h"
         "${PROJECT_SOURCE_DIR}/tools/*.cpp" "${PROJECT_SOURCE_DIR}/tools/*.h"
         "${PROJECT_SOURCE_DIR}/tests/*.cpp" "${PROJECT_SOURCE_DIR}/tests/*.h")
    foreach(source IN LISTS sources)
        if(source IN_LIST allowed OR source MATCHES "^engine/store/")
            continue()
        endif()
        file(STRINGS "${PROJECT_SOURCE_DIR}/${source}" hits
             REGEX "[^A-Za-z_]prepare\\(|[^A-Za-z_:]exec\\([^)]|sqlite3_[a-z_0-9]+|[.>]database\\(\\)")
        if(hits)
            message(FATAL_ERROR "SQL outside the store: ${source}: ${hits}\n"
                                "Add a named method to the store (engine/store/store.h) instead; "
                                "see cmake/SqlOwnership.cmake")
        endif()
    endforeach()
endfunction()

# Called once every target exists (the top CMakeLists.txt, at its end): the targets of `dirs`
# that link SQLite directly, other than the store and the raw-SQL tests.
function(layoutbench_check_sqlite_links)
    set(pending ${ARGN})
    while(pending)
        list(POP_FRONT pending dir)
        get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
        get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
        list(APPEND pending ${subdirs})
        foreach(target IN LISTS targets)
            get_target_property(libs ${target} LINK_LIBRARIES)
            if(NOT libs OR target STREQUAL "layoutbench_store")
                continue()
            endif()
            get_target_property(sources ${target} SOURCES)
            if(sources MATCHES "support/raw_sql\\.cpp")
                continue()
            endif()
            if(libs MATCHES "SQLite::SQLite3|sqlite3")
                message(FATAL_ERROR "${target} links SQLite: only engine/store may "
                                    "(cmake/SqlOwnership.cmake)")
            endif()
        endforeach()
    endwhile()
endfunction()

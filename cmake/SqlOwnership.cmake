# Only the store writes SQL: its modules (engine/store*.cpp, engine/journal.cpp, over the thin
# layer in engine/sqlite.*) hold every statement, and everything else calls the store's named
# methods. Tests reach below the store only through tests/support/raw_sql.*, for the few that
# must corrupt or search a database on purpose. This check runs at configure time and fails the
# build when a statement is prepared or executed, or the connection is reached, anywhere else.
# (exec() without arguments is Qt's event loop or a dialog, not SQL.)
function(layoutbench_check_sql_ownership)
    set(allowed
        engine/sqlite.h engine/sqlite.cpp engine/store.h engine/store_internal.h
        engine/journal.cpp tests/support/raw_sql.h tests/support/raw_sql.cpp)
    file(GLOB_RECURSE sources RELATIVE "${PROJECT_SOURCE_DIR}"
         "${PROJECT_SOURCE_DIR}/app/*.cpp" "${PROJECT_SOURCE_DIR}/app/*.h"
         "${PROJECT_SOURCE_DIR}/bench/*.cpp" "${PROJECT_SOURCE_DIR}/bench/*.h"
         "${PROJECT_SOURCE_DIR}/engine/*.cpp" "${PROJECT_SOURCE_DIR}/engine/*.h"
         "${PROJECT_SOURCE_DIR}/probes/*.cpp" "${PROJECT_SOURCE_DIR}/probes/*.h"
         "${PROJECT_SOURCE_DIR}/reports/*.cpp" "${PROJECT_SOURCE_DIR}/reports/*.h"
         "${PROJECT_SOURCE_DIR}/tools/*.cpp" "${PROJECT_SOURCE_DIR}/tools/*.h"
         "${PROJECT_SOURCE_DIR}/tests/*.cpp" "${PROJECT_SOURCE_DIR}/tests/*.h")
    foreach(source IN LISTS sources)
        if(source IN_LIST allowed OR source MATCHES "^engine/store_[a-z]+\\.cpp$"
           OR source STREQUAL "engine/store.cpp")
            continue()
        endif()
        file(STRINGS "${PROJECT_SOURCE_DIR}/${source}" hits
             REGEX "[^A-Za-z_]prepare\\(|[^A-Za-z_:]exec\\([^)]|sqlite3_[a-z_0-9]+|[.>]database\\(\\)")
        if(hits)
            message(FATAL_ERROR "SQL outside the store: ${source}: ${hits}\n"
                                "Add a named method to the store (engine/store.h) instead; see "
                                "cmake/SqlOwnership.cmake")
        endif()
    endforeach()
endfunction()

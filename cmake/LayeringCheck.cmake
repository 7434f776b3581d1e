# The engine, the probes, the Qt-free reports library and the command line must run on a headless
# storage server: they may neither include nor link Qt. layoutbench_check_no_qt(TARGET DIR) runs at
# configure time and fails the build if a source or CMakeLists.txt under DIR uses Qt, or if TARGET
# links Qt, QCustomPlot, X11 or GL, directly or through any library of the project it links.
function(layoutbench_check_no_qt target dir)
    file(GLOB_RECURSE sources "${dir}/*.h" "${dir}/*.cpp" "${dir}/CMakeLists.txt")
    foreach(source IN LISTS sources)
        file(STRINGS "${source}" hits REGEX "#[ \t]*include[ \t]*[<\"]Q[A-Za-z]|Qt[56]::|find_package\\(Qt")
        if(hits)
            message(FATAL_ERROR "Layering violation: ${source} uses Qt (${hits}); "
                                "${target} must stay Qt-free")
        endif()
    endforeach()
    layoutbench_check_links_no_qt(${target} ${target})
endfunction()

# TARGET and every library target it links, followed down: none may be Qt, QCustomPlot, X11 or
# GL. `via` names the path, for the message.
function(layoutbench_check_links_no_qt target via)
    get_target_property(libs ${target} LINK_LIBRARIES)
    if(NOT libs)
        return()
    endif()
    foreach(lib IN LISTS libs)
        if(lib MATCHES "^Qt[56]?::|QCustomPlot|^X11::|^OpenGL::|^GL$|^EGL$")
            message(FATAL_ERROR "Layering violation: ${via} links ${lib}")
        endif()
        if(TARGET ${lib} AND lib MATCHES "^layoutbench_")
            layoutbench_check_links_no_qt(${lib} "${via} -> ${lib}")
        endif()
    endforeach()
endfunction()

# A folder of the engine may include only its own headers and those of the layers its library
# links (engine/CMakeLists.txt names them; its link checks hold the calls to the same rule). This
# check holds the includes: a header of a layer above is a configure error naming the file and
# the include, even where no call crosses (a type alone). A folder's *_internal.h is its own.
function(layoutbench_layers_below target out)
    set(found "")
    get_target_property(libs ${target} LINK_LIBRARIES)
    foreach(lib IN LISTS libs)
        if(lib MATCHES "^layoutbench_([a-z]+)$" AND NOT lib STREQUAL "layoutbench_warnings")
            list(APPEND found ${CMAKE_MATCH_1})
            layoutbench_layers_below(${lib} deeper)
            list(APPEND found ${deeper})
        endif()
    endforeach()
    list(REMOVE_DUPLICATES found)
    set(${out} ${found} PARENT_SCOPE)
endfunction()

function(layoutbench_check_engine_includes)
    get_property(layers GLOBAL PROPERTY LAYOUTBENCH_ENGINE_LAYERS)
    foreach(layer IN LISTS layers)
        string(REPLACE "layoutbench_" "" folder ${layer})
        layoutbench_layers_below(${layer} uses)
        file(GLOB sources "${PROJECT_SOURCE_DIR}/engine/${folder}/*")
        foreach(source IN LISTS sources)
            file(STRINGS "${source}" includes REGEX "#[ \t]*include[ \t]*\"engine/")
            foreach(line IN LISTS includes)
                if(NOT line MATCHES "\"engine/([a-z_]+)/")
                    message(FATAL_ERROR "Layering violation: ${source}: ${line}: the front door "
                                        "is for the apps, probes and reports, not the engine")
                endif()
                set(to ${CMAKE_MATCH_1})
                if(to STREQUAL folder)
                    continue()
                endif()
                if(NOT to IN_LIST uses)
                    if(uses)
                        list(JOIN uses ", " allowed)
                    else()
                        set(allowed "no other layer")
                    endif()
                    message(FATAL_ERROR "Layering violation: ${source}: ${line}: engine/${folder} "
                                        "may use ${allowed} (engine/CMakeLists.txt)")
                endif()
                if(line MATCHES "_internal\\.h\"")
                    message(FATAL_ERROR "Layering violation: ${source}: ${line}: a folder's "
                                        "*_internal.h is private to it")
                endif()
            endforeach()
        endforeach()
    endforeach()
endfunction()

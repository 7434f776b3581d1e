cmake_minimum_required(VERSION 3.25)
# Turns one scdoc page into gzipped roff:
#   cmake -DSCDOC=scdoc -DGZIP=gzip -DVERSION=0.1.0 [-DDATE_EPOCH=SECONDS] -DIN=page.1.scd
#         -DOUT=build/page.1 -P scdoc.cmake
# @VERSION@ in the page becomes the release. The date in the page's footer is DATE_EPOCH (the
# last commit's time, or SOURCE_DATE_EPOCH), so a rebuild of the same commit gives the same page.
file(READ "${IN}" text)
string(REPLACE "@VERSION@" "${VERSION}" text "${text}")
file(WRITE "${OUT}.scd" "${text}")
if(DATE_EPOCH)
    set(ENV{SOURCE_DATE_EPOCH} "${DATE_EPOCH}")
endif()
execute_process(COMMAND "${SCDOC}" INPUT_FILE "${OUT}.scd" OUTPUT_FILE "${OUT}"
                ERROR_VARIABLE error RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "scdoc: ${IN}: ${error}")
endif()
# -n: no name or time stamp in the gzip header, as Debian wants.
execute_process(COMMAND "${GZIP}" -9nf "${OUT}" RESULT_VARIABLE result)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "gzip ${OUT} failed")
endif()

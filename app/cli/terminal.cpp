#include "app/cli/terminal.h"

#include <cstdlib>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

namespace lb::cli {

std::size_t terminalColumns(int fd) {
    winsize size{};
    if (isatty(fd) == 0 || ioctl(fd, TIOCGWINSZ, &size) != 0)
        return 0;
    return size.ws_col;
}

std::size_t outputColumns() {
    if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
        char* end = nullptr;
        const long n = std::strtol(columns, &end, 10);
        if (*end == '\0' && n > 0)
            return static_cast<std::size_t>(n);
    }
    return terminalColumns(STDOUT_FILENO);
}

} // namespace lb::cli

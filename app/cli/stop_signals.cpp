#include "app/cli/stop_signals.h"

#include <csignal>

namespace lb::cli {

std::atomic<bool> interrupted{false};
std::atomic<int> interruptedBy{0};

namespace {

extern "C" void onSignal(int signal) {
    interruptedBy.store(signal);
    interrupted.store(true);
}

} // namespace

void catchStopSignals() {
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

} // namespace lb::cli

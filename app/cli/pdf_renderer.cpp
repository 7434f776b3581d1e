// A PDF through layoutbench-render (see pdf_renderer.h): the document goes to it as JSON in a
// private temporary file, its message comes back as this command's error.
#include "app/cli/pdf_renderer.h"

#include "engine/exec/runner.h"
#include "reports/report_json.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <unistd.h>

namespace lb::cli {

namespace fs = std::filesystem;

namespace {

bool executable(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// The document in a new file only this user can read, removed when this goes out of scope.
class TemporaryDocument {
public:
    static Expected<TemporaryDocument> write(const std::string& text) {
        std::error_code ec;
        fs::path dir = fs::temp_directory_path(ec);
        if (ec)
            dir = "/tmp";
        std::string name = (dir / "layoutbench-report-XXXXXX.json").string();
        const int fd = ::mkstemps(name.data(), 5);
        if (fd < 0)
            return runtimeError(dir.string() +
                                ": cannot write a temporary file: " + std::strerror(errno));
        TemporaryDocument doc(name);
        std::string_view rest = text;
        while (!rest.empty()) {
            const ssize_t n = ::write(fd, rest.data(), rest.size());
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                const std::string why = std::strerror(errno);
                ::close(fd);
                return runtimeError(name + ": cannot write: " + why);
            }
            rest.remove_prefix(static_cast<std::size_t>(n));
        }
        ::close(fd);
        return doc;
    }
    TemporaryDocument(TemporaryDocument&& o) noexcept : path_(std::move(o.path_)) {
        o.path_.clear();
    }
    TemporaryDocument(const TemporaryDocument&) = delete;
    TemporaryDocument& operator=(const TemporaryDocument&) = delete;
    TemporaryDocument& operator=(TemporaryDocument&&) = delete;
    ~TemporaryDocument() {
        if (!path_.empty())
            ::unlink(path_.c_str());
    }
    const std::string& path() const { return path_; }

private:
    explicit TemporaryDocument(std::string path) : path_(std::move(path)) {}
    std::string path_;
};

// The last line of what the renderer said, without its own "layoutbench-render: " prefix.
std::string lastLine(std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    if (const auto nl = text.rfind('\n'); nl != std::string::npos)
        text = text.substr(nl + 1);
    const std::string prefix = std::string(rendererProgram) + ": ";
    return text.starts_with(prefix) ? text.substr(prefix.size()) : text;
}

} // namespace

std::optional<std::string> findRenderer() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (!ec && executable(self.parent_path() / rendererProgram))
        return (self.parent_path() / rendererProgram).string();
    const char* path = std::getenv("PATH");
    std::string_view dirs = path ? path : "";
    while (!dirs.empty()) {
        const auto colon = dirs.find(':');
        const std::string_view dir = dirs.substr(0, colon);
        if (!dir.empty() && executable(fs::path(dir) / rendererProgram))
            return (fs::path(dir) / rendererProgram).string();
        dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    }
    return std::nullopt;
}

Expected<void> pdfThroughRenderer(const ReportDocument& document, const std::string& path) {
    const auto renderer = findRenderer();
    if (!renderer)
        return runtimeError("out: " + path + ": a PDF is drawn by " + rendererProgram +
                            ", which is not installed (it is in the package " + rendererPackage +
                            "); HTML (.html) and Markdown (.md) reports need nothing more");
    LB_TRY(json, TemporaryDocument::write(reportDocumentJson(document)));
    Command c;
    c.program = *renderer;
    c.args = {"--document", json.path(), "--out", path};
    LB_TRY(result, makeLocalRunner()->run(c));
    if (!result.ok())
        return runtimeError(
            "out: " + path + ": " + rendererProgram + " (" + *renderer + ") failed: " +
            lastLine(result.stderrText.empty() ? result.exitSummary() : result.stderrText));
    return {};
}

} // namespace lb::cli

// The NFS transport over libnfs: the export mounted (NFSv3 or v4), the file opened (created for
// writing where missing) and its size read, with a timeout on every step, then preads and pwrites
// queued async.
#include "netload.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <nfsc/libnfs.h>

namespace lbnetload {

namespace {

class NfsTransport final : public Transport {
public:
    explicit NfsTransport(const Options& o) : o_(o), pattern_(writePattern(o.bs, o.seed)) {
        ctx_ = nfs_init_context();
        if (!ctx_)
            throw Failure("nfs: cannot create a libnfs context");
        url_ = nfs_parse_url_full(ctx_, o.url.c_str());
        if (!url_)
            throw Failure(o.url + ": not an NFS file URL (nfs://HOST/EXPORT/FILE[?version=4]): " +
                              nfs_get_error(ctx_),
                          2);
        where_ = o.url;
        nfs_set_timeout(ctx_, o.timeout * 1000);
        nfs_set_autoreconnect(ctx_, 0);

        // NFSv4 talks to the NFS port alone; NFSv3 asks the portmapper first.
        const bool v4 = queryValue(o.url, "version") == "4";
        const std::string nfsPort = queryValue(o.url, "nfsport");
        if (v4)
            checkReachable(where_, url_->server, nfsPort.empty() ? "2049" : nfsPort, o.timeout,
                           "an NFSv4 server");
        else if (nfsPort.empty() || queryValue(o.url, "mountport").empty())
            checkReachable(where_, url_->server, "111", o.timeout, "rpcbind (NFSv3 portmapper)");

        Step step;
        if (nfs_mount_async(ctx_, url_->server, url_->path, &NfsTransport::stepDone, &step) != 0)
            throw Failure(where_ + ": cannot mount " + url_->path + ": " + nfs_get_error(ctx_));
        pollUntil(
            *this, [&] { return step.done; }, o.timeout, "mount");
        if (step.status != 0)
            throw Failure(where_ + ": mounting export " + url_->path + " from " + url_->server +
                          " failed: " + step.message);

        // libnfs 4.0 creates NFSv4 files exclusively, so O_CREAT fails on an existing file with
        // NFS4ERR_EXIST: open first, create only when the file is missing.
        step = open(o.isWrite() ? O_RDWR : O_RDONLY);
        if (o.isWrite() && step.status == -ENOENT)
            step = open(O_RDWR | O_CREAT);
        if (step.status != 0)
            throw Failure(where_ + ": opening " + url_->file + " failed: " + step.message);
        fh_ = static_cast<nfsfh*>(step.data);

        step = Step{};
        if (nfs_fstat64_async(ctx_, fh_, &NfsTransport::statDone, &step) != 0)
            throw Failure(where_ + ": cannot stat " + url_->file + ": " + nfs_get_error(ctx_));
        pollUntil(
            *this, [&] { return step.done; }, o.timeout, "stat");
        if (step.status != 0)
            throw Failure(where_ + ": stat of " + url_->file + " failed: " + step.message);
        fileSize_ = step.size;
        if (o.isWrite()) {
            if (!o.size && fileSize_ < o.bs)
                throw Failure(where_ + ": writing a new or empty file needs --size (the region "
                                       "to write)",
                              2);
            region_ = o.size ? *o.size : fileSize_;
        } else {
            region_ = fileSize_;
        }
    }

    ~NfsTransport() override {
        if (ctx_) {
            // Sync close and unmount would wait on a dead server; the context going away closes
            // the connection, and an NFSv3 server keeps no state that needs the unmount.
            if (healthy_ && fh_) {
                Step step;
                if (nfs_close_async(ctx_, fh_, &NfsTransport::stepDone, &step) == 0) {
                    try {
                        pollUntil(
                            *this, [&] { return step.done; }, 2, "close");
                    } catch (const Failure&) {
                    }
                }
            }
            nfs_destroy_context(ctx_);
        }
        if (url_)
            nfs_destroy_url(url_);
    }

    int fd() override { return nfs_get_fd(ctx_); }
    int events() override { return nfs_which_events(ctx_); }
    bool service(int revents) override {
        if (nfs_service(ctx_, revents) < 0) {
            healthy_ = false;
            return false;
        }
        return true;
    }
    std::string error() override {
        const char* e = nfs_get_error(ctx_);
        std::string msg = e && *e ? oneLine(e) : "unknown libnfs error";
        if (msg.find("COMPOUND4args") != std::string::npos && o_.isWrite())
            msg += " (libnfs " LB_LIBNFS_VERSION " cannot encode NFSv4 WRITE; use version=3)";
        return msg;
    }
    std::uint64_t regionBytes() const override { return region_; }
    std::string where() const override { return where_; }

    bool submit(Slot& s) override {
        const int rc = o_.isWrite()
                           ? nfs_pwrite_async(ctx_, fh_, s.offset, o_.bs, pattern_.data(),
                                              &NfsTransport::ioDone, &s)
                           : nfs_pread_async(ctx_, fh_, s.offset, o_.bs, &NfsTransport::ioDone, &s);
        return rc == 0;
    }

private:
    struct Step {
        bool done = false;
        int status = 0;
        std::string message;
        void* data = nullptr;
        std::uint64_t size = 0;
    };

    Step open(int flags) {
        Step step;
        if (nfs_open2_async(ctx_, url_->file, flags, 0644, &NfsTransport::stepDone, &step) != 0)
            throw Failure(where_ + ": cannot open " + url_->file + ": " + nfs_get_error(ctx_));
        pollUntil(
            *this, [&] { return step.done; }, o_.timeout, "open");
        return step;
    }

    static void stepDone(int err, nfs_context*, void* data, void* priv) {
        auto* s = static_cast<Step*>(priv);
        s->done = true;
        s->status = err;
        if (err < 0) {
            s->message = data ? static_cast<const char*>(data) : std::strerror(-err);
            s->message += " (" + std::string(std::strerror(-err)) + ")";
        } else {
            s->data = data;
        }
    }

    static void statDone(int err, nfs_context* ctx, void* data, void* priv) {
        stepDone(err, ctx, data, priv);
        if (err == 0 && data)
            static_cast<Step*>(priv)->size = static_cast<nfs_stat_64*>(data)->nfs_size;
    }

    static void ioDone(int err, nfs_context*, void* data, void* priv) {
        auto* slot = static_cast<Slot*>(priv);
        std::string why;
        if (err < 0)
            why = (data ? static_cast<const char*>(data) : "") + std::string(" (") +
                  std::strerror(-err) + ")";
        // A short read or write means the file or the server changed under us.
        else if (static_cast<std::uint64_t>(err) != slot->driver->blockSize())
            why = "short transfer: " + std::to_string(err) + " bytes";
        slot->driver->completed(*slot, why.empty(), why);
    }

    const Options& o_;
    std::vector<unsigned char> pattern_;
    nfs_context* ctx_ = nullptr;
    nfs_url* url_ = nullptr;
    nfsfh* fh_ = nullptr;
    std::string where_;
    std::uint64_t fileSize_ = 0;
    std::uint64_t region_ = 0;
    bool healthy_ = true;
};

} // namespace

std::unique_ptr<Transport> connectNfs(const Options& o) {
    return std::make_unique<NfsTransport>(o);
}

} // namespace lbnetload

// The iSCSI transport over libiscsi: a session to one LUN (CHAP where given), logged in and its
// capacity read with a timeout on every step, then READ(16) and WRITE(16) tasks queued async.
#include "netload.h"

#include <iscsi/iscsi.h>
#include <iscsi/scsi-lowlevel.h>

namespace lbnetload {

namespace {

class IscsiTransport final : public Transport {
public:
    explicit IscsiTransport(const Options& o) : o_(o), pattern_(writePattern(o.bs, o.seed)) {
        configure();
        const auto [host, port] = splitHostPort(url_->portal, "3260");
        checkReachable(where_, host, port, o.timeout, "an iSCSI portal");
        login();
        readCapacity();
        if (blockSize_ == 0 || o.bs % blockSize_ != 0)
            throw Failure(where_ + ": --bs " + std::to_string(o.bs) +
                              " is not a multiple of the LUN's " + std::to_string(blockSize_) +
                              "-byte blocks",
                          2);
    }

    ~IscsiTransport() override {
        if (ctx_) {
            if (loggedIn_ && healthy_) {
                // Bounded: a logout that gets no answer is dropped with the context.
                iscsi_set_timeout(ctx_, 2);
                iscsi_logout_sync(ctx_);
            }
            iscsi_destroy_context(ctx_);
        }
        if (url_)
            iscsi_destroy_url(url_);
    }

    int fd() override { return iscsi_get_fd(ctx_); }
    int events() override { return iscsi_which_events(ctx_); }
    bool service(int revents) override {
        if (iscsi_service(ctx_, revents) < 0) {
            healthy_ = false;
            return false;
        }
        return true;
    }
    std::string error() override {
        const char* e = iscsi_get_error(ctx_);
        return e && *e ? oneLine(e) : "unknown libiscsi error";
    }
    std::uint64_t regionBytes() const override { return capacity_; }
    std::string where() const override { return where_; }

    bool submit(Slot& s) override {
        const auto lba = s.offset / blockSize_;
        const auto len = static_cast<std::uint32_t>(o_.bs);
        const int bsz = static_cast<int>(blockSize_);
        scsi_task* t = o_.isWrite()
                           ? iscsi_write16_task(ctx_, url_->lun, lba, pattern_.data(), len, bsz, 0,
                                                0, 0, 0, 0, &IscsiTransport::ioDone, &s)
                           : iscsi_read16_task(ctx_, url_->lun, lba, len, bsz, 0, 0, 0, 0, 0,
                                               &IscsiTransport::ioDone, &s);
        return t != nullptr;
    }

private:
    // The context for the URL's target and LUN: the session's settings, CHAP where given.
    void configure() {
        ctx_ = iscsi_create_context("iqn.2026-11.org.layoutbench:lb-netload");
        if (!ctx_)
            throw Failure("iscsi: cannot create a libiscsi context");
        url_ = iscsi_parse_full_url(ctx_, o_.url.c_str());
        if (!url_)
            throw Failure(o_.url + ": not an iSCSI LUN URL (iscsi://HOST[:PORT]/IQN/LUN): " +
                              iscsi_get_error(ctx_),
                          2);
        where_ = std::string("iscsi://") + url_->portal + "/" + url_->target + "/" +
                 std::to_string(url_->lun);
        // A dropped session is an error to report, not something to retry for ever.
        iscsi_set_noautoreconnect(ctx_, 1);
        iscsi_set_reconnect_max_retries(ctx_, 0);
        iscsi_set_timeout(ctx_, o_.timeout);
        iscsi_set_tcp_user_timeout(ctx_, o_.timeout * 1000);
        iscsi_set_tcp_syncnt(ctx_, 2);
        iscsi_set_session_type(ctx_, ISCSI_SESSION_NORMAL);
        iscsi_set_header_digest(ctx_, ISCSI_HEADER_DIGEST_NONE_CRC32C);
        iscsi_set_targetname(ctx_, url_->target);
        if (!o_.chapUser.empty())
            iscsi_set_initiator_username_pwd(ctx_, o_.chapUser.c_str(), o_.chapSecret.c_str());
    }

    void login() {
        bool done = false;
        int status = 0;
        auto step = Step{&done, &status, nullptr};
        if (iscsi_full_connect_async(ctx_, url_->portal, url_->lun, &IscsiTransport::stepDone,
                                     &step) != 0)
            throw Failure(where_ + ": cannot connect: " + iscsi_get_error(ctx_));
        pollUntil(
            *this, [&] { return done; }, o_.timeout, "connect and login");
        if (status != SCSI_STATUS_GOOD)
            throw Failure(where_ + ": login to target " + url_->target + " LUN " +
                          std::to_string(url_->lun) + " failed: " + iscsi_get_error(ctx_));
        loggedIn_ = true;
    }

    // The LUN's block size and capacity, from READ CAPACITY(16).
    void readCapacity() {
        bool done = false;
        int status = 0;
        auto step = Step{&done, &status, nullptr};
        scsi_task* task =
            iscsi_readcapacity16_task(ctx_, url_->lun, &IscsiTransport::stepDone, &step);
        if (!task)
            throw Failure(where_ + ": cannot queue READ CAPACITY: " + iscsi_get_error(ctx_));
        pollUntil(
            *this, [&] { return done; }, o_.timeout, "READ CAPACITY(16)");
        if (status != SCSI_STATUS_GOOD || !step.task) {
            if (step.task)
                scsi_free_scsi_task(step.task);
            throw Failure(where_ + ": READ CAPACITY(16) failed on LUN " +
                          std::to_string(url_->lun) + ": " + iscsi_get_error(ctx_));
        }
        auto* cap = static_cast<scsi_readcapacity16*>(scsi_datain_unmarshall(step.task));
        if (!cap) {
            scsi_free_scsi_task(step.task);
            throw Failure(where_ + ": cannot read the READ CAPACITY(16) reply");
        }
        blockSize_ = cap->block_length;
        capacity_ = (cap->returned_lba + 1) * blockSize_;
        scsi_free_scsi_task(step.task);
    }

    struct Step {
        bool* done;
        int* status;
        scsi_task* task;
    };

    static void stepDone(iscsi_context*, int status, void* data, void* priv) {
        auto* s = static_cast<Step*>(priv);
        *s->done = true;
        *s->status = status;
        s->task = static_cast<scsi_task*>(data);
    }

    static void ioDone(iscsi_context* ctx, int status, void* data, void* priv) {
        auto* slot = static_cast<Slot*>(priv);
        auto* task = static_cast<scsi_task*>(data);
        std::string why;
        if (status != SCSI_STATUS_GOOD) {
            why = iscsi_get_error(ctx);
            if (task && status == SCSI_STATUS_CHECK_CONDITION)
                why = std::string("SCSI ") + scsi_sense_key_str(task->sense.key) + "/" +
                      scsi_sense_ascq_str(task->sense.ascq);
        }
        if (task)
            scsi_free_scsi_task(task);
        slot->driver->completed(*slot, status == SCSI_STATUS_GOOD, why);
    }

    const Options& o_;
    std::vector<unsigned char> pattern_;
    iscsi_context* ctx_ = nullptr;
    iscsi_url* url_ = nullptr;
    std::string where_;
    std::uint64_t blockSize_ = 512;
    std::uint64_t capacity_ = 0;
    bool loggedIn_ = false;
    bool healthy_ = true;
};

} // namespace

std::unique_ptr<Transport> connectIscsi(const Options& o) {
    return std::make_unique<IscsiTransport>(o);
}

} // namespace lbnetload

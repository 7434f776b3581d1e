// The typed destroy confirmation (see destroy_confirm_dialog.h).
#include "app/gui/destroy_confirm_dialog.h"

#include "app/gui/plan_view.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace lb::gui {

namespace {

QString joined(const std::vector<std::string>& items) {
    QStringList out;
    for (const auto& i : items)
        out << qs(i);
    return out.join(QStringLiteral(", "));
}

// Per layout, each device it destroys and what the safety inspection found on it.
QString reviewText(const std::vector<PlannedLayout>& layouts,
                   const std::vector<DeviceReview>& devices) {
    QString text;
    for (const auto& l : layouts) {
        text += DestroyConfirmDialog::tr("Layout %1 (%2) destroys:\n").arg(qs(l.name), qs(l.kind));
        for (const auto& path : l.devices) {
            const auto d = std::find_if(devices.begin(), devices.end(),
                                        [&](const DeviceReview& r) { return r.path == path; });
            if (d == devices.end())
                continue;
            text += DestroyConfirmDialog::tr("  %1 — disk \"%2\", wipe = %3\n")
                        .arg(qs(d->path), qs(d->disk),
                             d->wipe ? QStringLiteral("true") : QStringLiteral("false"));
            if (!d->state) {
                text += d->inspectError.empty()
                            ? DestroyConfirmDialog::tr("    not inspected\n")
                            : DestroyConfirmDialog::tr("    could not be inspected: %1\n")
                                  .arg(qs(d->inspectError));
                continue;
            }
            const DiskState& s = *d->state;
            QStringList identity;
            if (!s.resolvedPath.empty() && s.resolvedPath != d->path)
                identity << DestroyConfirmDialog::tr("kernel name %1").arg(qs(s.resolvedPath));
            identity << (s.serial.empty()
                             ? DestroyConfirmDialog::tr("no serial")
                             : DestroyConfirmDialog::tr("serial %1").arg(qs(s.serial)));
            text +=
                QStringLiteral("    ") + identity.join(QStringLiteral(", ")) + QLatin1Char('\n');
            if (s.blank())
                text +=
                    DestroyConfirmDialog::tr("    blank: the safety check found nothing on it\n");
            for (const auto& reason : s.inUse)
                text += DestroyConfirmDialog::tr("    IN USE: %1\n").arg(qs(reason));
            if (!s.inUse.empty())
                text += DestroyConfirmDialog::tr("    REFUSED: a disk in use is never destroyed, "
                                                 "whatever is typed or marked; free it first\n");
            for (const auto& reason : s.carries)
                text += QStringLiteral("    ") + qs(reason) + QLatin1Char('\n');
            if (s.inUse.empty() && !s.carries.empty() && !d->wipe)
                text +=
                    DestroyConfirmDialog::tr("    not marked wipe = true: the engine will refuse "
                                             "it while it holds anything\n");
        }
        text += QLatin1Char('\n');
    }
    return text.trimmed() + QLatin1Char('\n');
}

} // namespace

DestroyConfirmDialog::DestroyConfirmDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Destroy the data on these disks?"));
    setModal(true);
    heading_ = new QLabel;
    heading_->setWordWrap(true);
    heading_->setStyleSheet(QStringLiteral("color: #b71c1c; font-weight: bold;"));

    details_ = new QPlainTextEdit;
    details_->setReadOnly(true);
    details_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    details_->setLineWrapMode(QPlainTextEdit::NoWrap);
    plan_ = new PlanModel(this);
    planView_ = makePlanView(plan_);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(details_);
    split->addWidget(planView_);
    split->setChildrenCollapsible(false);

    auto* prompt = new QLabel(tr("Type each device's path (or its serial) exactly to confirm that "
                                 "its data may be destroyed:"));
    prompt->setWordWrap(true);
    form_ = new QWidget;
    new QGridLayout(form_);

    auto* buttons = new QDialogButtonBox;
    destroy_ = buttons->addButton(tr("Destroy and run"), QDialogButtonBox::AcceptRole);
    cancel_ = buttons->addButton(QDialogButtonBox::Cancel);
    // Return in a confirmation line must neither destroy nor cancel.
    for (QPushButton* b : {destroy_, cancel_}) {
        b->setAutoDefault(false);
        b->setDefault(false);
    }
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (allConfirmed())
            accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(split, 1);
    layout->addWidget(prompt);
    layout->addWidget(form_);
    layout->addWidget(buttons);

    QSize size(960, 640);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() * 0.9);
    resize(size);
    updateConfirmation();
}

void DestroyConfirmDialog::setReview(const CampaignReview& review) {
    devices_ = review.devices;
    std::vector<PlannedLayout> destroying;
    for (const auto& l : review.layouts)
        if (!l.devices.empty())
            destroying.push_back(l);

    QStringList names;
    for (const auto& l : destroying)
        names << qs(l.name);
    QStringList refusedPaths;
    for (const auto& d : devices_)
        if (inUse(d))
            refusedPaths << qs(d.path);
    heading_->setText(
        refusedPaths.isEmpty()
            ? tr("Building %1 (scenario %2) destroys everything on the devices below. "
                 "Nothing has run yet.")
                  .arg(names.join(QStringLiteral(", ")), qs(review.scenario))
            : tr("Refused: %1 in use. A disk in use is never destroyed; free it and try again. "
                 "Nothing has run.")
                  .arg(refusedPaths.join(QStringLiteral(", "))));
    details_->setPlainText(reviewText(destroying, devices_));
    plan_->setLayouts(destroying);

    auto* grid = static_cast<QGridLayout*>(form_->layout());
    while (QLayoutItem* item = grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    edits_.clear();
    marks_.clear();
    for (std::size_t i = 0; i < devices_.size(); ++i) {
        const DeviceReview& d = devices_[i];
        auto* label = new QLabel(qs(d.path));
        label->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        label->setToolTip(tr("Used by %1").arg(joined(d.layouts)));
        auto* edit = new QLineEdit;
        const bool serial = d.state && !d.state->serial.empty();
        edit->setPlaceholderText(serial ? tr("type %1 or %2").arg(qs(d.path), qs(d.state->serial))
                                        : tr("type %1").arg(qs(d.path)));
        edit->setAccessibleName(tr("Confirm %1").arg(qs(d.path)));
        auto* mark = new QLabel;
        if (inUse(d)) {
            // Nothing typed can let a disk in use through: the line takes no input.
            edit->setPlaceholderText(tr("refused: in use"));
            edit->setEnabled(false);
            edit->setReadOnly(true);
            mark->setStyleSheet(QStringLiteral("color: #b71c1c; font-weight: bold;"));
        }
        mark->setMinimumWidth(mark->fontMetrics().horizontalAdvance(tr("refused: in use")));
        const int row = static_cast<int>(i);
        grid->addWidget(label, row, 0);
        grid->addWidget(edit, row, 1);
        grid->addWidget(mark, row, 2);
        connect(edit, &QLineEdit::textChanged, this, &DestroyConfirmDialog::updateConfirmation);
        edits_.push_back(edit);
        marks_.push_back(mark);
    }
    grid->setColumnStretch(1, 1);
    if (!edits_.empty())
        edits_.front()->setFocus();
    updateConfirmation();
}

bool DestroyConfirmDialog::inUse(const DeviceReview& device) {
    return device.state && !device.state->inUse.empty();
}

bool DestroyConfirmDialog::names(const DeviceReview& device, const QString& typed) {
    if (typed.isEmpty() || inUse(device))
        return false;
    if (typed == qs(device.path))
        return true;
    if (!device.state)
        return false;
    const DiskState& s = *device.state;
    return (!s.resolvedPath.empty() && typed == qs(s.resolvedPath)) ||
           (!s.serial.empty() && typed == qs(s.serial));
}

bool DestroyConfirmDialog::refused(std::size_t device) const {
    return device < devices_.size() && inUse(devices_[device]);
}

bool DestroyConfirmDialog::confirmed(std::size_t device) const {
    return device < devices_.size() && names(devices_[device], edits_[device]->text());
}

bool DestroyConfirmDialog::allConfirmed() const {
    if (devices_.empty())
        return false;
    for (std::size_t i = 0; i < devices_.size(); ++i)
        if (!confirmed(i))
            return false;
    return true;
}

std::vector<std::string> DestroyConfirmDialog::typedNames() const {
    std::vector<std::string> out;
    for (const QLineEdit* edit : edits_)
        out.push_back(ss(edit->text()));
    return out;
}

void DestroyConfirmDialog::updateConfirmation() {
    for (std::size_t i = 0; i < marks_.size(); ++i)
        marks_[i]->setText(refused(i)     ? tr("refused: in use")
                           : confirmed(i) ? tr("typed ✓")
                                          : QString());
    destroy_->setEnabled(allConfirmed());
}

} // namespace lb::gui

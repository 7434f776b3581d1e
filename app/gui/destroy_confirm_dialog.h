// The typed confirmation before a campaign destroys block devices (the GUI's --yes-destroy):
// every device the campaign touches, per layout, with what the engine's safety inspection found
// on it, and the plan those layouts run (each step with its undo); then one line per device where
// the user types its path (or its serial, or the kernel's name for it) exactly. "Destroy and run"
// stays disabled until every device is typed; typedNames() is what goes to the engine as
// CampaignOptions::yesDestroy. A device the inspection found in use (mounted, swap, in an md
// array or an imported pool, ...) is shown refused: its line takes no input and the campaign
// cannot be confirmed, as the engine would refuse it whatever was typed.
#pragma once

#include "app/gui/gui_types.h"

#include <QDialog>
#include <vector>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;

namespace lb::gui {

class PlanModel;

class DestroyConfirmDialog : public QDialog {
    Q_OBJECT
public:
    explicit DestroyConfirmDialog(QWidget* parent = nullptr);

    // The devices to confirm and the layouts that destroy them (layouts without a device are not
    // shown). Clears anything typed before.
    void setReview(const CampaignReview& review);
    const std::vector<DeviceReview>& devices() const { return devices_; }

    // Every device typed exactly, none in use.
    bool allConfirmed() const;
    bool confirmed(std::size_t device) const;
    // The inspection found the device in use: nothing confirms it.
    bool refused(std::size_t device) const;
    static bool inUse(const DeviceReview& device);
    // What was typed, one entry a device, in the order of devices().
    std::vector<std::string> typedNames() const;

    // Whether `typed` names the device exactly: its path, or the kernel's name or the serial the
    // inspection found. Never for a device in use.
    static bool names(const DeviceReview& device, const QString& typed);

    QLineEdit* confirmEdit(std::size_t device) const { return edits_.at(device); }
    QPushButton* destroyButton() const { return destroy_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPlainTextEdit* details() const { return details_; }
    PlanModel* planModel() const { return plan_; }

private:
    void updateConfirmation();

    std::vector<DeviceReview> devices_;
    std::vector<QLineEdit*> edits_;
    std::vector<QLabel*> marks_;
    QWidget* form_ = nullptr;
    QLabel* heading_ = nullptr;
    QPlainTextEdit* details_ = nullptr;
    PlanModel* plan_ = nullptr;
    QTableView* planView_ = nullptr;
    QPushButton* destroy_ = nullptr;
    QPushButton* cancel_ = nullptr;
};

} // namespace lb::gui

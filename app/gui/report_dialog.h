// File ▸ Write report…: the decision report for whoever signs, as HTML, PDF or Markdown (the
// format follows the file's extension), about a baseline and its candidates, all runs or one
// campaign's, of one machine where the layouts hold runs of several. The store's thread gathers the
// data; the report is drawn here, on the GUI thread, because its charts are widgets; then it is
// opened.
#pragma once

#include "app/gui/gui_types.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace lb::gui {

class StoreService;

class ReportDialog : public QDialog {
    Q_OBJECT
public:
    ReportDialog(StoreService* store, const DatabaseSnapshot& snapshot, QWidget* parent = nullptr);

    void setOutputPath(const QString& path);
    void setBaseline(const QString& layout); // "" for the scenario's (or the first)
    QComboBox* hostBox() const { return host_; }
    void setOpenWhenWritten(bool open);
    // Gathers and writes the report; written or failed when done.
    void startWriting();

    QPushButton* writeButton() const { return writeButton_; }
    QString status() const;

signals:
    void written(const QString& path);
    void failed(const QString& message);

private:
    StoreService* store_;
    QLineEdit* out_;
    QComboBox* baseline_;
    QComboBox* candidate_;
    QComboBox* campaign_;
    QComboBox* host_;
    QCheckBox* open_;
    QLabel* status_;
    QPushButton* writeButton_;
    QString pending_; // the path being written
};

} // namespace lb::gui

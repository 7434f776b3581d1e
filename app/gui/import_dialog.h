// File ▸ Import results…: bonnie++, fio, iozone and dd output from files or a paste, into a
// layout chosen or named here. The paste box says what it holds as it is typed; each file is
// imported whole or not at all on the store's thread, and the outcome is listed per file.
#pragma once

#include "app/gui/gui_types.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTimer;

namespace lb::gui {

class StoreService;

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    enum Column { File, Outcome, Runs, Metrics, Count };

    ImportDialog(StoreService* store, const std::vector<LayoutRecord>& layouts,
                 QWidget* parent = nullptr);

    void addFiles(const QStringList& files);
    void setLayoutName(const QString& name);
    void setPaste(const QString& text);
    // What the paste box holds, as detected: "bonnie++ 2.00a text table, 1 machine, 39 metrics".
    QString detection() const;
    // Imports the files listed and the paste (kept as a file under the app's data directory).
    void startImport();

    QTableWidget* outcomes() const { return table_; }
    QPushButton* importButton() const { return importButton_; }

signals:
    void importDone(int imported, int failed);

private:
    void detectPaste();
    void updateButtons();
    int rowOf(const QString& file) const;

    StoreService* store_;
    QComboBox* layout_;
    QLineEdit* host_;
    QTableWidget* table_;
    QPlainTextEdit* paste_;
    QLabel* detection_;
    QProgressBar* progress_;
    QPushButton* importButton_;
    QTimer* detectTimer_;
    bool running_ = false;
};

} // namespace lb::gui

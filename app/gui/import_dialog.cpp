// The import dialog (see import_dialog.h).
#include "app/gui/import_dialog.h"

#include "app/gui/store_service.h"
#include "probes/import.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace lb::gui {

ImportDialog::ImportDialog(StoreService* store, const std::vector<LayoutRecord>& layouts,
                           QWidget* parent)
    : QDialog(parent), store_(store) {
    setWindowTitle(tr("Import results"));
    layout_ = new QComboBox;
    layout_->setEditable(true);
    for (const auto& l : layouts)
        layout_->addItem(qs(l.name));
    layout_->setCurrentText(QString());
    layout_->lineEdit()->setPlaceholderText(tr("an existing layout, or a new name"));
    host_ = new QLineEdit(QStringLiteral("imported"));

    table_ = new QTableWidget(0, Count);
    table_->setHorizontalHeaderLabels({tr("File"), tr("Outcome"), tr("Runs"), tr("Metrics")});
    table_->horizontalHeader()->setSectionResizeMode(Outcome, QHeaderView::Stretch);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* addButton = new QPushButton(tr("Add files…"));
    connect(addButton, &QPushButton::clicked, this, [this] {
        addFiles(QFileDialog::getOpenFileNames(
            this, tr("Results to import"), QDir::homePath(),
            tr("Results (*.csv *.json *.txt *.log *.out);;All files (*)")));
    });

    paste_ = new QPlainTextEdit;
    paste_->setPlaceholderText(tr("…or paste a bonnie++ table or CSV line, fio JSON, terse or "
                                  "normal output, iozone or dd output here"));
    detection_ = new QLabel;
    detection_->setWordWrap(true);
    detectTimer_ = new QTimer(this);
    detectTimer_->setSingleShot(true);
    detectTimer_->setInterval(250); // detect once typing pauses, not on every key
    connect(detectTimer_, &QTimer::timeout, this, &ImportDialog::detectPaste);
    connect(paste_, &QPlainTextEdit::textChanged, detectTimer_, qOverload<>(&QTimer::start));
    connect(paste_, &QPlainTextEdit::textChanged, this, &ImportDialog::updateButtons);
    connect(layout_, &QComboBox::currentTextChanged, this, &ImportDialog::updateButtons);

    progress_ = new QProgressBar;
    progress_->setVisible(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    importButton_ = buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
    connect(importButton_, &QPushButton::clicked, this, &ImportDialog::startImport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* form = new QFormLayout;
    form->addRow(tr("Into layout"), layout_);
    form->addRow(tr("Host"), host_);
    auto* files = new QHBoxLayout;
    files->addWidget(table_, 1);
    files->addWidget(addButton, 0, Qt::AlignTop);
    auto* main = new QVBoxLayout(this);
    main->addLayout(form);
    main->addLayout(files, 2);
    main->addWidget(paste_, 1);
    main->addWidget(detection_);
    main->addWidget(progress_);
    main->addWidget(buttons);
    resize(760, 520);

    connect(
        store_, &StoreService::fileImported, this,
        [this](const ImportOutcome& o, int done, int total) {
            int row = rowOf(qs(o.file));
            if (row < 0) {
                addFiles({qs(o.file)});
                row = rowOf(qs(o.file));
            }
            auto* outcome = new QTableWidgetItem(o.ok ? qs(o.message)
                                                      : tr("not imported: %1").arg(qs(o.message)));
            outcome->setForeground(o.ok ? palette().text() : QBrush(Qt::darkRed));
            outcome->setToolTip(qs(o.message));
            table_->setItem(row, Outcome, outcome);
            table_->setItem(row, Runs, new QTableWidgetItem(QString::number(o.runs)));
            table_->setItem(row, Metrics, new QTableWidgetItem(QString::number(o.metrics)));
            progress_->setRange(0, total);
            progress_->setValue(done);
        },
        Qt::QueuedConnection);
    connect(
        store_, &StoreService::importFinished, this,
        [this](int imported, int failed) {
            running_ = false;
            updateButtons();
            emit importDone(imported, failed);
        },
        Qt::QueuedConnection);
    updateButtons();
}

int ImportDialog::rowOf(const QString& file) const {
    for (int r = 0; r < table_->rowCount(); ++r)
        if (table_->item(r, File) && table_->item(r, File)->data(Qt::UserRole).toString() == file)
            return r;
    return -1;
}

void ImportDialog::addFiles(const QStringList& files) {
    for (const auto& f : files) {
        if (f.isEmpty() || rowOf(f) >= 0)
            continue;
        const int row = table_->rowCount();
        table_->insertRow(row);
        auto* item = new QTableWidgetItem(QFileInfo(f).fileName());
        item->setData(Qt::UserRole, f);
        item->setToolTip(f);
        table_->setItem(row, File, item);
        table_->setItem(row, Outcome, new QTableWidgetItem(tr("to import")));
    }
    updateButtons();
}

void ImportDialog::setLayoutName(const QString& name) {
    layout_->setCurrentText(name);
}

void ImportDialog::setPaste(const QString& text) {
    paste_->setPlainText(text);
    detectPaste();
}

QString ImportDialog::detection() const {
    return detection_->text();
}

void ImportDialog::detectPaste() {
    const QString text = paste_->toPlainText();
    if (text.trimmed().isEmpty()) {
        detection_->clear();
        return;
    }
    const auto preview = describeImport(ss(text));
    detection_->setStyleSheet(preview.ok ? QString() : QStringLiteral("color: darkred"));
    detection_->setText(preview.ok ? qs(preview.description)
                                   : tr("not importable: %1").arg(qs(preview.description)));
}

void ImportDialog::updateButtons() {
    const bool anything = table_->rowCount() > 0 || !paste_->toPlainText().trimmed().isEmpty();
    importButton_->setEnabled(!running_ && anything && !layout_->currentText().trimmed().isEmpty());
}

void ImportDialog::startImport() {
    const QString layout = layout_->currentText().trimmed();
    if (running_ || layout.isEmpty())
        return;
    const QString text = paste_->toPlainText();
    if (!text.trimmed().isEmpty()) {
        // A paste is kept as a file, so its runs name where they came from like any other.
        const QDir dir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                       QStringLiteral("/pastes"));
        QDir().mkpath(dir.path());
        const QString path = dir.filePath(QStringLiteral("paste-%1.txt")
                                              .arg(QDateTime::currentDateTimeUtc().toString(
                                                  QStringLiteral("yyyyMMdd-HHmmss-zzz"))));
        QFile file(path);
        if (file.open(QIODevice::WriteOnly)) {
            file.write(text.toUtf8());
            file.close();
            addFiles({path});
            paste_->clear();
        }
    }
    QStringList files;
    for (int r = 0; r < table_->rowCount(); ++r)
        if (table_->item(r, Outcome)->text() == tr("to import"))
            files << table_->item(r, File)->data(Qt::UserRole).toString();
    if (files.isEmpty())
        return;
    running_ = true;
    updateButtons();
    progress_->setVisible(true);
    progress_->setRange(0, static_cast<int>(files.size()));
    progress_->setValue(0);
    store_->importFiles(layout, host_->text().trimmed(), files);
}

} // namespace lb::gui

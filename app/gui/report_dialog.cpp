// The report dialog (see report_dialog.h).
#include "app/gui/report_dialog.h"

#include "app/gui/store_service.h"
#include "engine/store/store.h"
#include "reports/report_file.h"
#include "reports/report_pdf.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>
#include <set>

namespace lb::gui {

ReportDialog::ReportDialog(StoreService* store, const DatabaseSnapshot& snapshot, QWidget* parent)
    : QDialog(parent), store_(store) {
    setWindowTitle(tr("Write report"));
    out_ = new QLineEdit(QDir::home().filePath(QStringLiteral("layoutbench-report.html")));
    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Write the report to"), out_->text(),
                                         tr("HTML (*.html);;PDF (*.pdf);;Markdown (*.md)"));
        if (!path.isEmpty())
            out_->setText(path);
    });
    baseline_ = new QComboBox;
    baseline_->addItem(tr("the scenario's baseline"), QString());
    candidate_ = new QComboBox;
    candidate_->addItem(tr("every other layout"), QString());
    for (const auto& l : snapshot.layouts) {
        baseline_->addItem(qs(l.name), qs(l.name));
        candidate_->addItem(qs(l.name), qs(l.name));
    }
    campaign_ = new QComboBox;
    // As `layoutbench report`: the newest campaign of the compared layouts unless told.
    campaign_->addItem(tr("the newest campaign of these layouts"), QVariant());
    campaign_->addItem(tr("every run in the database"), QVariant::fromValue(qlonglong(-1)));
    for (const auto& c : snapshot.campaigns)
        campaign_->addItem(tr("campaign #%1 %2 (%3)").arg(c.id).arg(qs(c.name), qs(c.startedAt)),
                           QVariant::fromValue(static_cast<qlonglong>(c.id)));
    // As `layoutbench report --host`: needed where a layout's runs come from several machines.
    host_ = new QComboBox;
    host_->addItem(tr("each layout's own machine"), QString());
    std::set<std::string> machines;
    for (const auto& [layout, hosts] : snapshot.hosts)
        machines.insert(hosts.begin(), hosts.end());
    for (const auto& m : machines)
        host_->addItem(qs(m), qs(m));
    open_ = new QCheckBox(tr("Open it when written"));
    open_->setChecked(true);
    status_ = new QLabel;
    status_->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    writeButton_ = buttons->addButton(tr("Write"), QDialogButtonBox::AcceptRole);
    connect(writeButton_, &QPushButton::clicked, this, &ReportDialog::startWriting);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* outRow = new QHBoxLayout;
    outRow->addWidget(out_, 1);
    outRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(tr("File (.html, .pdf, .md)"), outRow);
    form->addRow(tr("Baseline"), baseline_);
    form->addRow(tr("Candidates"), candidate_);
    form->addRow(tr("Runs"), campaign_);
    form->addRow(tr("Host"), host_);
    form->addRow(QString(), open_);
    auto* main = new QVBoxLayout(this);
    main->addLayout(form);
    main->addWidget(status_);
    main->addWidget(buttons);
    resize(620, 260);

    connect(
        store_, &StoreService::reportGathered, this,
        [this](const ReportData& gathered) {
            if (pending_.isEmpty())
                return; // another dialog's request
            const QString path = pending_;
            pending_.clear();
            writeButton_->setEnabled(true);
            auto format = writeReportFile(gathered, ss(path), writePdf);
            if (!format) {
                status_->setText(qs(format.error().message));
                emit failed(qs(format.error().message));
                return;
            }
            status_->setText(tr("Wrote %1.").arg(path));
            if (open_->isChecked() && qEnvironmentVariableIsEmpty("LAYOUTBENCH_GUI_NO_DIALOGS"))
                QDesktopServices::openUrl(QUrl::fromLocalFile(path));
            emit written(path);
        },
        Qt::QueuedConnection);
    connect(
        store_, &StoreService::reportFailed, this,
        [this](const QString& message) {
            if (pending_.isEmpty())
                return;
            pending_.clear();
            writeButton_->setEnabled(true);
            status_->setText(message);
            emit failed(message);
        },
        Qt::QueuedConnection);
}

void ReportDialog::setOutputPath(const QString& path) {
    out_->setText(path);
}

void ReportDialog::setBaseline(const QString& layout) {
    const int i = baseline_->findData(layout);
    baseline_->setCurrentIndex(i < 0 ? 0 : i);
}

void ReportDialog::setOpenWhenWritten(bool open) {
    open_->setChecked(open);
}

QString ReportDialog::status() const {
    return status_->text();
}

void ReportDialog::startWriting() {
    const QString path = out_->text().trimmed();
    if (!reportFormatOf(ss(path))) {
        status_->setText(tr("The file must end in .html, .pdf or .md: the format follows it."));
        return;
    }
    ReportRequest request;
    if (const QString b = baseline_->currentData().toString(); !b.isEmpty())
        request.baseline = ss(b);
    if (const QString c = candidate_->currentData().toString(); !c.isEmpty())
        request.candidate = ss(c);
    if (campaign_->currentData().isValid()) {
        if (const qlonglong id = campaign_->currentData().toLongLong(); id < 0)
            request.allRuns = true;
        else
            request.campaignId = id;
    }
    if (const QString h = host_->currentData().toString(); !h.isEmpty())
        request.host = ss(h);
    request.author = defaultAuthor();
    request.writtenAt = utcNow();
    request.generator = "layoutbench " + QCoreApplication::applicationVersion().toStdString();
    pending_ = path;
    writeButton_->setEnabled(false);
    status_->setText(tr("Gathering the report's data …"));
    store_->gatherReport(request);
}

} // namespace lb::gui

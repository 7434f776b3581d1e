// The Campaign tab (see campaign_tab.h).
#include "app/gui/campaign_tab.h"

#include "app/gui/campaign_queue_model.h"
#include "reports/charts.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <cmath>

namespace lb::gui {

QString formatDuration(double seconds) {
    const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    if (s >= 3600)
        return QStringLiteral("%1h%2m").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// Run, Stop, Show plan…, the unfinished campaigns with Resume and Clean up, and the database.
QHBoxLayout* CampaignTab::makeButtonRow() {
    run_ = new QPushButton(tr("Run scenario"));
    run_->setToolTip(tr("Build each layout of the scenario, run every workload, store everything"));
    stop_ = new QPushButton(tr("Stop"));
    stop_->setToolTip(tr("Stop the running tool politely (SIGINT, then SIGTERM, then SIGKILL) "
                         "and tear the layout down; the campaign can be resumed"));
    resume_ = new QPushButton(tr("Resume"));
    cleanup_ = new QPushButton(tr("Clean up"));
    cleanup_->setToolTip(tr("Undo what this campaign left built when it was interrupted (pools, "
                            "arrays, mounts, exports, partitions, virtual machines), from its "
                            "journal, without resuming it"));
    plan_ = new QPushButton(tr("Show plan…"));
    plan_->setToolTip(tr("The commands each layout of the scenario runs when it is built, each "
                         "with its undo"));
    resumeBox_ = new QComboBox;
    resumeBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    resumeBox_->setMinimumContentsLength(16);
    database_ = new QLabel;
    database_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(stop_);
    buttons->addWidget(plan_);
    buttons->addSpacing(16);
    buttons->addWidget(new QLabel(tr("Unfinished campaign:")));
    buttons->addWidget(resumeBox_);
    buttons->addWidget(resume_);
    buttons->addWidget(cleanup_);
    buttons->addStretch(1);
    buttons->addWidget(database_);

    return buttons;
}

// The progress bar with its estimate, the status line and the verdicts once a campaign ends.
QVBoxLayout* CampaignTab::makeProgressRows() {
    progress_ = new QProgressBar;
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(QString());
    eta_ = new QLabel;
    status_ = new QLabel(tr("No campaign running."));
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(progress_, 1);
    progressRow->addWidget(eta_);
    verdicts_ = new QLabel;
    verdicts_->setWordWrap(true);
    verdicts_->setTextFormat(Qt::RichText);
    verdicts_->setVisible(false);
    showComparison_ = new QPushButton(tr("Show the comparison"));
    showComparison_->setVisible(false);
    auto* verdictRow = new QHBoxLayout;
    verdictRow->addWidget(verdicts_, 1);
    verdictRow->addWidget(showComparison_, 0, Qt::AlignTop);

    auto* rows = new QVBoxLayout;
    rows->addLayout(progressRow);
    rows->addWidget(status_);
    rows->addLayout(verdictRow);
    return rows;
}

// The queue of runs above the running tool's output.
QSplitter* CampaignTab::makeQueueAndOutput() {
    queue_ = new CampaignQueueModel(this);
    queueView_ = new QTableView;
    queueView_->setModel(queue_);
    queueView_->verticalHeader()->hide();
    queueView_->verticalHeader()->setDefaultSectionSize(queueView_->fontMetrics().height() + 6);
    queueView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    queueView_->setWordWrap(false);
    queueView_->horizontalHeader()->setStretchLastSection(true);
    queueView_->setColumnWidth(CampaignQueueModel::Layout, 120);
    queueView_->setColumnWidth(CampaignQueueModel::Workload, 170);
    queueView_->setColumnWidth(CampaignQueueModel::Iteration, 70);
    queueView_->setColumnWidth(CampaignQueueModel::State, 110);
    queueView_->setColumnWidth(CampaignQueueModel::Seconds, 70);

    output_ = new QPlainTextEdit;
    output_->setReadOnly(true);
    output_->setMaximumBlockCount(maxOutputLines);
    output_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    output_->setLineWrapMode(QPlainTextEdit::NoWrap);
    output_->setPlaceholderText(tr("The running tool's output appears here."));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(queueView_);
    split->addWidget(output_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    return split;
}

CampaignTab::CampaignTab(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(makeButtonRow());
    layout->addLayout(makeProgressRows());
    layout->addWidget(makeQueueAndOutput(), 1);

    connect(run_, &QPushButton::clicked, this, &CampaignTab::runRequested);
    connect(stop_, &QPushButton::clicked, this, &CampaignTab::stopRequested);
    connect(plan_, &QPushButton::clicked, this, &CampaignTab::planRequested);
    connect(resume_, &QPushButton::clicked, this, [this] {
        if (resumeBox_->currentIndex() >= 0)
            emit resumeRequested(resumeBox_->currentData().toLongLong());
    });
    connect(cleanup_, &QPushButton::clicked, this, [this] {
        if (resumeBox_->currentIndex() >= 0)
            emit cleanupRequested(resumeBox_->currentData().toLongLong());
    });
    connect(queue_, &CampaignQueueModel::progressChanged, this, &CampaignTab::updateProgress);
    updateButtons();
}

void CampaignTab::setCampaigns(const std::vector<CampaignRecord>& campaigns) {
    resumeBox_->clear();
    // Newest first: the one just stopped is the one to resume.
    for (auto it = campaigns.rbegin(); it != campaigns.rend(); ++it)
        if (it->status != CampaignStatus::Done)
            resumeBox_->addItem(tr("#%1 %2 (%3, %4 runs)")
                                    .arg(it->id)
                                    .arg(qs(it->name), qs(enumName(it->status)))
                                    .arg(it->runs),
                                QVariant::fromValue<qlonglong>(it->id));
    updateButtons();
}

void CampaignTab::setScenarioValid(bool valid) {
    scenarioValid_ = valid;
    updateButtons();
}

void CampaignTab::setDatabase(const QString& path) {
    database_->setText(path.isEmpty() ? QString()
                                      : tr("Database: %1").arg(QFileInfo(path).fileName()));
    database_->setToolTip(path);
}

void CampaignTab::setRunning(bool running) {
    running_ = running;
    updateButtons();
}

void CampaignTab::showStatus(const QString& text) {
    status_->setText(text);
}

void CampaignTab::updateButtons() {
    run_->setEnabled(!running_ && scenarioValid_);
    plan_->setEnabled(scenarioValid_);
    run_->setToolTip(scenarioValid_ ? QString() : tr("Fix the scenario first (Scenario tab)"));
    stop_->setEnabled(running_);
    resume_->setEnabled(!running_ && resumeBox_->count() > 0);
    cleanup_->setEnabled(!running_ && resumeBox_->count() > 0);
    resumeBox_->setEnabled(!running_ && resumeBox_->count() > 0);
}

void CampaignTab::campaignPlanned(const CampaignPlan& plan, const RunTable* runs) {
    verdicts_->setVisible(false);
    showComparison_->setVisible(false);
    queue_->setPlan(plan);
    if (plan.resume && runs)
        queue_->markDoneBefore(*runs, *plan.resume);
    output_->clear();
    lastOutputEndedLine_ = true;
    status_->setText(plan.resume
                         ? tr("Resuming campaign #%1 (%2)").arg(*plan.resume).arg(qs(plan.scenario))
                         : tr("Starting campaign %1").arg(qs(plan.scenario)));
}

void CampaignTab::campaignProgress(const CampaignProgress& p) {
    queue_->applyProgress(p);
    const QString layout = qs(p.layout);
    switch (p.kind) {
    case CampaignProgress::Kind::Building:
        status_->setText(tr("%1: building the layout").arg(layout));
        appendMessage(tr("== %1: building").arg(layout));
        break;
    case CampaignProgress::Kind::TearingDown:
        status_->setText(tr("%1: tearing down").arg(layout));
        appendMessage(tr("== %1: tearing down").arg(layout));
        break;
    case CampaignProgress::Kind::Running:
        status_->setText(tr("%1 · %2 · iteration %3 of %4")
                             .arg(layout, qs(p.workload))
                             .arg(p.iteration + 1)
                             .arg(p.iterations));
        appendMessage(
            tr("== %1 · %2 · iteration %3").arg(layout, qs(p.workload)).arg(p.iteration + 1));
        break;
    case CampaignProgress::Kind::RunFinished:
        if (p.status != RunStatus::Ok)
            appendMessage(tr("== %1 · %2 · iteration %3: %4 — %5")
                              .arg(layout, qs(p.workload))
                              .arg(p.iteration + 1)
                              .arg(qs(runStatusName(p.status)), qs(p.message)));
        break;
    case CampaignProgress::Kind::Message:
        status_->setText(qs(p.message));
        appendMessage(qs(p.message));
        break;
    }
}

void CampaignTab::appendToolOutput(bool stderrStream, const QString& text) {
    Q_UNUSED(stderrStream);
    QScrollBar* bar = output_->verticalScrollBar();
    const bool atEnd = bar->value() == bar->maximum();
    QTextCursor cursor(output_->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    lastOutputEndedLine_ = text.endsWith(QLatin1Char('\n'));
    if (atEnd)
        bar->setValue(bar->maximum());
}

void CampaignTab::appendMessage(const QString& text) {
    appendToolOutput(false, (lastOutputEndedLine_ ? QString() : QStringLiteral("\n")) + text +
                                QLatin1Char('\n'));
}

void CampaignTab::campaignFinished(const CampaignResult& r) {
    QString text = tr("Campaign #%1 %2: %3 run(s), %4 failed")
                       .arg(r.campaignId)
                       .arg(qs(enumName(r.status)))
                       .arg(r.runs)
                       .arg(r.failedRuns);
    if (r.skippedRuns)
        text += tr(", %1 done before").arg(r.skippedRuns);
    for (const auto& p : r.problems)
        text += QStringLiteral("\n") + tr("problem: %1").arg(qs(p));
    if (r.status == CampaignStatus::Aborted)
        text += QStringLiteral("\n") + tr("Resume it with Resume.");
    status_->setText(text);
    appendMessage(text);

    // What it decided, one headline per candidate in its verdict's colour, worst first.
    QStringList lines;
    for (const auto& c : r.comparisons) {
        const QColor colour(charts::verdictColor(c.verdict));
        lines << tr("<span style=\"background-color: %1; color: %2;\">&nbsp;<b>%3</b>&nbsp;</span> "
                    "%4")
                     .arg(colour.name(),
                          colour.lightnessF() < 0.5f ? QStringLiteral("white")
                                                     : QStringLiteral("black"),
                          qs(verdictName(c.verdict)), qs(c.headline).toHtmlEscaped());
        appendMessage(qs(c.headline));
    }
    for (const auto& why : r.notComparable)
        lines << qs(why).toHtmlEscaped();
    verdicts_->setText(lines.join(QStringLiteral("<br>")));
    verdicts_->setVisible(!lines.isEmpty());
    showComparison_->disconnect();
    showComparison_->setVisible(!r.comparisons.empty());
    if (!r.comparisons.empty()) {
        const auto baseline = qs(r.comparisons.front().baseline);
        const auto candidate = qs(r.comparisons.front().candidate);
        const auto campaign = r.campaignId;
        connect(showComparison_, &QPushButton::clicked, this,
                [this, baseline, candidate, campaign] {
                    emit comparisonRequested(baseline, candidate, campaign);
                });
    }
}

void CampaignTab::campaignFailed(const QString& message) {
    status_->setText(tr("The campaign could not run: %1").arg(message));
    appendMessage(status_->text());
}

void CampaignTab::cleanupFinished(const CleanupResult& r) {
    QString text =
        r.undone.empty()
            ? tr("Campaign #%1: nothing left to undo").arg(r.campaignId)
            : tr("Campaign #%1: %2 undo command(s) run").arg(r.campaignId).arg(r.undone.size());
    text +=
        r.status != r.statusBefore
            ? tr("; it was %1, now %2").arg(qs(enumName(r.statusBefore)), qs(enumName(r.status)))
            : tr("; status %1").arg(qs(enumName(r.status)));
    if (r.abortedRuns)
        text += tr("; %1 interrupted run(s) marked aborted").arg(r.abortedRuns);
    for (const auto& p : r.problems)
        text += QStringLiteral("\n") + tr("still there (Clean up again retries): %1").arg(qs(p));
    status_->setText(text);
    appendMessage(text);
}

void CampaignTab::cleanupFailed(const QString& message) {
    status_->setText(tr("The cleanup could not run: %1").arg(message));
    appendMessage(status_->text());
}

void CampaignTab::campaignStopped() {
    queue_->campaignStopped();
}

void CampaignTab::updateProgress() {
    const auto total = static_cast<int>(queue_->total());
    progress_->setRange(0, std::max(total, 1));
    progress_->setValue(static_cast<int>(queue_->done()));
    progress_->setFormat(total > 0 ? tr("%v / %m runs") : QString());
    if (const auto eta = queue_->etaSeconds())
        eta_->setText(tr("ETA %1").arg(formatDuration(*eta)));
    else
        eta_->clear();
}

} // namespace lb::gui

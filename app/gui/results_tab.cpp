// The Results tab (see results_tab.h).
#include "app/gui/results_tab.h"

#include "app/gui/comparison_model.h"
#include "app/gui/runs_model.h"
#include "engine/measure/analysis.h"
#include "engine/measure/fill_levels.h"
#include "reports/charts.h"
#include "reports/display.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <iterator>
#include <set>

namespace lb::gui {

namespace {

QTableView* makeTable(QAbstractItemModel* model) {
    auto* view = new QTableView;
    view->setModel(model);
    view->setSortingEnabled(true);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    // Fixed row heights: the view never measures 100,000 rows.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setHighlightSections(false);
    return view;
}

} // namespace

// The runs stored, with their filter and count.
QWidget* ResultsTab::makeRunsPane() {
    runs_ = new RunsModel(this);
    runsProxy_ = new RunsFilterModel(this);
    runsProxy_->setSourceModel(runs_);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(
        tr("Filter runs: layout, host, workload, status or reason (all words)"));
    filter_->setClearButtonEnabled(true);
    runCount_ = new QLabel;
    auto* filterTimer = new QTimer(this);
    filterTimer->setSingleShot(true);
    filterTimer->setInterval(150);
    connect(filter_, &QLineEdit::textChanged, filterTimer, qOverload<>(&QTimer::start));
    connect(filterTimer, &QTimer::timeout, this, [this] {
        runsProxy_->setFilterText(filter_->text());
        updateRunCount();
    });
    runsView_ = makeTable(runsProxy_);
    // Shown in id order as loaded; a click on a header sorts.
    runsView_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    runsView_->setColumnWidth(RunsModel::Id, 60);
    runsView_->setColumnWidth(RunsModel::Campaign, 80);
    runsView_->setColumnWidth(RunsModel::Layout, 110);
    runsView_->setColumnWidth(RunsModel::Host, 100);
    runsView_->setColumnWidth(RunsModel::Workload, 150);
    runsView_->setColumnWidth(RunsModel::Iteration, 70);
    runsView_->setColumnWidth(RunsModel::Status, 70);
    runsView_->setColumnWidth(RunsModel::Seconds, 70);
    runsView_->setColumnWidth(RunsModel::Metrics, 60);

    auto* runsTop = new QHBoxLayout;
    runsTop->addWidget(new QLabel(tr("Runs")));
    runsTop->addWidget(filter_, 1);
    runsTop->addWidget(runCount_);
    auto* runsBox = new QWidget;
    auto* runsLayout = new QVBoxLayout(runsBox);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    runsLayout->addLayout(runsTop);
    runsLayout->addWidget(runsView_, 1);
    return runsBox;
}

// The layouts compared, the runs they are taken from, and the verdict bands.
QVBoxLayout* ResultsTab::makeComparisonPicker() {
    baseline_ = new QComboBox;
    candidate_ = new QComboBox;
    campaign_ = new QComboBox;
    host_ = new QComboBox;
    host_->setToolTip(tr("The machine whose runs are compared: runs of different machines are "
                         "never compared as one"));
    fill_ = new QComboBox;
    fill_->setToolTip(tr("The fill level whose runs are compared, the candidate's against the "
                         "baseline's at the same level: runs at different fill levels are never "
                         "compared as one"));
    for (QComboBox* box : {baseline_, candidate_, host_, campaign_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        box->setMinimumContentsLength(10);
    }
    // "as built", "50 %": a narrow list.
    fill_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    fill_->setMinimumContentsLength(8);
    viable_ = new QDoubleSpinBox;
    notViable_ = new QDoubleSpinBox;
    for (QDoubleSpinBox* box : {viable_, notViable_}) {
        box->setRange(1.0, 100.0);
        box->setDecimals(2);
        box->setSingleStep(0.05);
        box->setKeyboardTracking(false);
    }
    const Thresholds defaults;
    viable_->setValue(defaults.viableMax);
    notViable_->setValue(defaults.notViableMin);
    viable_->setToolTip(tr("A cost ratio at or below this is viable"));
    notViable_->setToolTip(tr("A cost ratio at or above this is not viable"));

    // Two rows, so the window still fits a 1024-pixel screen: what is compared, then whose runs
    // and the bands.
    auto* layouts = new QHBoxLayout;
    layouts->addWidget(new QLabel(tr("Baseline")));
    layouts->addWidget(baseline_);
    layouts->addWidget(new QLabel(tr("Candidate")));
    layouts->addWidget(candidate_);
    layouts->addWidget(new QLabel(tr("Host")));
    layouts->addWidget(host_);
    layouts->addStretch(1);
    auto* runs = new QHBoxLayout;
    runs->addWidget(new QLabel(tr("Fill")));
    runs->addWidget(fill_);
    runs->addWidget(new QLabel(tr("Runs of")));
    runs->addWidget(campaign_);
    runs->addStretch(1);
    runs->addWidget(new QLabel(tr("Viable ≤")));
    runs->addWidget(viable_);
    runs->addWidget(new QLabel(tr("Not viable ≥")));
    runs->addWidget(notViable_);
    auto* pick = new QVBoxLayout;
    pick->addLayout(layouts);
    pick->addLayout(runs);
    return pick;
}

// The comparison: the picker, the summary in words and each metric's row, worst first.
QWidget* ResultsTab::makeComparisonPane() {
    auto* pick = makeComparisonPicker();
    summary_ = new QLabel;
    summary_->setTextFormat(Qt::RichText);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setMargin(4);

    comparison_ = new ComparisonModel(this);
    comparisonProxy_ = new QSortFilterProxyModel(this);
    comparisonProxy_->setSourceModel(comparison_);
    comparisonProxy_->setSortRole(ComparisonModel::SortRole);
    comparisonView_ = makeTable(comparisonProxy_);
    // Worst first, as the command line's compare and the report list them; a click on a header
    // sorts by that column.
    comparisonView_->sortByColumn(ComparisonModel::Verdict, Qt::DescendingOrder);
    comparisonView_->setColumnWidth(ComparisonModel::Metric, 230);
    for (int c : {ComparisonModel::Baseline, ComparisonModel::Candidate})
        comparisonView_->setColumnWidth(c, 120);
    comparisonView_->setColumnWidth(ComparisonModel::Ratio, 70);
    comparisonView_->setColumnWidth(ComparisonModel::Overhead, 90);
    comparisonView_->setColumnWidth(ComparisonModel::Interval, 110);
    comparisonView_->setColumnWidth(ComparisonModel::Verdict, 130);
    // The reason a metric is not confident is read whole, not cut to "no: the 95 …".
    comparisonView_->horizontalHeader()->setSectionResizeMode(ComparisonModel::Confident,
                                                              QHeaderView::ResizeToContents);
    // The metric names take what is left; the numbers keep their width.
    comparisonView_->horizontalHeader()->setStretchLastSection(false);
    comparisonView_->horizontalHeader()->setSectionResizeMode(ComparisonModel::Metric,
                                                              QHeaderView::Stretch);

    auto* cmpBox = new QWidget;
    auto* cmpLayout = new QVBoxLayout(cmpBox);
    cmpLayout->setContentsMargins(0, 0, 0, 0);
    cmpLayout->addLayout(pick);
    cmpLayout->addWidget(summary_);
    cmpLayout->addWidget(comparisonView_, 1);
    return cmpBox;
}

ResultsTab::ResultsTab(QWidget* parent) : QWidget(parent) {
    auto* runsBox = makeRunsPane();
    auto* cmpBox = makeComparisonPane();
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(runsBox);
    split->addWidget(cmpBox);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    for (QComboBox* box : {baseline_, candidate_, host_, fill_, campaign_})
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (!filling_)
                requestComparison();
        });
    for (QDoubleSpinBox* box : {viable_, notViable_})
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] { requestComparison(); });
    updateRunCount();
}

void ResultsTab::setRuns(const std::shared_ptr<const RunTable>& runs) {
    runs_->setRuns(runs);
    updateRunCount();
}

void ResultsTab::setLayouts(const std::vector<LayoutRecord>& layouts,
                            const std::vector<CampaignRecord>& campaigns,
                            const std::map<std::string, std::vector<std::string>>& hosts,
                            const std::map<std::string, std::vector<int>>& fillLevels) {
    hosts_ = hosts;
    hostsOf_.clear(); // the machines are listed again, the picked one kept
    fillLevels_ = fillLevels;
    fillOf_.clear();
    // Keep the picked layouts when they are still there (after a reload).
    const QString oldBaseline = baseline_->currentText();
    const QString oldCandidate = candidate_->currentText();
    const QVariant oldCampaign = campaign_->currentData();
    filling_ = true;
    baseline_->clear();
    candidate_->clear();
    campaign_->clear();
    for (const auto& l : layouts) {
        const QString name = qs(l.name);
        const QString tip =
            tr("%1 · %2 run(s), %3 failed").arg(qs(l.kind)).arg(l.runs).arg(l.failedRuns);
        baseline_->addItem(name);
        baseline_->setItemData(baseline_->count() - 1, tip, Qt::ToolTipRole);
        candidate_->addItem(name);
        candidate_->setItemData(candidate_->count() - 1, tip, Qt::ToolTipRole);
    }
    campaign_->addItem(tr("all campaigns"), QVariant());
    for (const auto& c : campaigns)
        campaign_->addItem(tr("#%1 %2").arg(c.id).arg(qs(c.name)),
                           QVariant::fromValue<qlonglong>(c.id));
    if (const int i = campaign_->findData(oldCampaign); oldCampaign.isValid() && i >= 0)
        campaign_->setCurrentIndex(i);
    filling_ = false;
    if (!selectLayouts(oldBaseline, oldCandidate)) {
        // By default the first layout is the baseline and the next one the candidate.
        filling_ = true;
        baseline_->setCurrentIndex(baseline_->count() > 0 ? 0 : -1);
        candidate_->setCurrentIndex(candidate_->count() > 1 ? 1 : -1);
        filling_ = false;
        requestComparison();
    }
}

bool ResultsTab::selectLayouts(const QString& baseline, const QString& candidate,
                               std::optional<std::int64_t> campaignId) {
    const int b = baseline_->findText(baseline);
    const int c = candidate_->findText(candidate);
    const int k =
        campaignId ? campaign_->findData(QVariant::fromValue(static_cast<qlonglong>(*campaignId)))
                   : campaign_->findData(QVariant());
    if (b < 0 || c < 0)
        return false;
    filling_ = true;
    baseline_->setCurrentIndex(b);
    candidate_->setCurrentIndex(c);
    if (k >= 0)
        campaign_->setCurrentIndex(k);
    filling_ = false;
    requestComparison();
    return true;
}

void ResultsTab::requestComparison() {
    const QString b = baseline_->currentText();
    const QString c = candidate_->currentText();
    if (b.isEmpty() || c.isEmpty()) {
        comparison_->clear();
        summary_->setText(baseline_->count() < 2 ? tr("Two layouts with results are needed for a "
                                                      "comparison.")
                                                 : QString());
        summary_->setStyleSheet({});
        return;
    }
    if (hostsOf_ != b + QLatin1Char('\n') + c)
        fillHosts();
    if (fillOf_ != b + QLatin1Char('\n') + c)
        fillFillLevels();
    if (b == c) {
        comparison_->clear();
        summary_->setStyleSheet({});
        summary_->setText(tr("Pick a candidate other than the baseline."));
        return;
    }
    std::optional<std::int64_t> campaign;
    if (campaign_->currentData().isValid())
        campaign = campaign_->currentData().toLongLong();
    Thresholds t;
    t.viableMax = viable_->value();
    t.notViableMin = notViable_->value();
    if (!validThresholds(t)) {
        summary_->setStyleSheet({});
        summary_->setText(tr("The not-viable threshold must be above the viable one."));
        return;
    }
    summary_->setStyleSheet({});
    const QString host = host_->currentData().toString();
    std::optional<int> fill;
    if (fill_->currentData().isValid())
        fill = fill_->currentData().toInt();
    summary_->setText((host.isEmpty()
                           ? tr("Comparing %1 against %2").arg(c.toHtmlEscaped(), b.toHtmlEscaped())
                           : tr("Comparing %1 against %2 on %3")
                                 .arg(c.toHtmlEscaped(), b.toHtmlEscaped(), host.toHtmlEscaped())) +
                      (fill ? tr(" at %1 …").arg(fill_->currentText().toHtmlEscaped()) : tr(" …")));
    emit compareRequested(b, c, t, campaign, host, fill);
}

void ResultsTab::fillHosts() {
    const QString b = baseline_->currentText();
    const QString c = candidate_->currentText();
    hostsOf_ = b + QLatin1Char('\n') + c;
    const QString old = host_->currentData().toString();
    std::set<std::string> machines;
    bool several = false; // a layout of several machines: the comparison needs one picked
    for (const QString& layout : {b, c})
        if (const auto it = hosts_.find(ss(layout)); it != hosts_.end()) {
            machines.insert(it->second.begin(), it->second.end());
            several = several || it->second.size() > 1;
        }
    const bool wasFilling = filling_;
    filling_ = true;
    host_->clear();
    host_->addItem(several ? tr("pick one …") : tr("each layout's own"), QString());
    for (const auto& m : machines)
        host_->addItem(qs(m), qs(m));
    if (const int i = host_->findData(old); !old.isEmpty() && i >= 0)
        host_->setCurrentIndex(i);
    host_->setEnabled(machines.size() > 1 || several);
    filling_ = wasFilling;
}

void ResultsTab::fillFillLevels() {
    const QString b = baseline_->currentText();
    const QString c = candidate_->currentText();
    fillOf_ = b + QLatin1Char('\n') + c;
    const QVariant old = fill_->currentData();
    // A layout with no runs at a fill level holds runs as built.
    const auto levelsOf = [this](const QString& layout) {
        const auto it = fillLevels_.find(ss(layout));
        return it != fillLevels_.end() ? std::set<int>(it->second.begin(), it->second.end())
                                       : std::set<int>{asBuiltPermille};
    };
    const std::set<int> ofBaseline = levelsOf(b), ofCandidate = levelsOf(c);
    std::set<int> levels = ofBaseline, both;
    levels.insert(ofCandidate.begin(), ofCandidate.end());
    std::set_intersection(ofBaseline.begin(), ofBaseline.end(), ofCandidate.begin(),
                          ofCandidate.end(), std::inserter(both, both.end()));
    const bool wasFilling = filling_;
    filling_ = true;
    fill_->clear();
    if (levels == std::set<int>{asBuiltPermille}) {
        // Neither was filled: the engine takes every run, as compare without --fill does.
        fill_->addItem(tr("as built"), QVariant());
        fill_->setEnabled(false);
        filling_ = wasFilling;
        return;
    }
    for (const int p : levels)
        fill_->addItem(
            qs(fillLevelText(p == asBuiltPermille ? std::nullopt : std::optional(fillLevelOf(p)))),
            p);
    // The level picked before when both still hold it; else as built, or the lowest level, that
    // both hold (std::set: as built, -1, first); else the lowest either holds.
    int pick = both.empty() ? *levels.begin() : *both.begin();
    if (old.isValid() && both.count(old.toInt()))
        pick = old.toInt();
    fill_->setCurrentIndex(fill_->findData(pick));
    fill_->setEnabled(levels.size() > 1);
    filling_ = wasFilling;
}

namespace {

// An HTML list of lines, each escaped.
QString htmlList(const std::vector<std::string>& lines) {
    QString out = QStringLiteral("<ul style=\"margin: 0\">");
    for (const auto& l : lines)
        out += QStringLiteral("<li>") + qs(l).toHtmlEscaped() + QStringLiteral("</li>");
    return out + QStringLiteral("</ul>");
}

// What the report's first page says below a verdict, in the same words: how sure it is, what
// makes the sides differ besides the layout, the caveats on the deciding figures, the next step,
// and what was not compared.
QString comparisonDetails(const Comparison& c) {
    // With no verdict its reason stands beside the word already.
    QString out = c.verdict == Verdict::NoVerdict
                      ? QString()
                      : QStringLiteral("<br>") +
                            qs(display::sentence(c.confidence)).toHtmlEscaped() +
                            QStringLiteral(".");
    if (const auto differ = figuresDiffer(c); !differ.empty())
        out += ResultsTab::tr("<br><b>Mind:</b> the figures of the two sides differ in more than "
                              "the layout.") +
               htmlList(differ);
    std::vector<std::string> caveats;
    for (const auto& line : decidingCaveats(c))
        caveats.push_back(line.text + " — on " + noteMetricsText(line, c));
    if (!caveats.empty())
        out += ResultsTab::tr("<b>Caveats on these figures:</b>") + htmlList(caveats);
    if (c.next)
        out += ResultsTab::tr("<b>Next step:</b> %1.").arg(qs(c.next->text).toHtmlEscaped());
    std::vector<std::string> notCompared;
    for (const auto& m : c.metrics)
        if (!m.excluded.empty())
            notCompared.push_back(m.name + ": " + m.excluded);
    for (const auto& n : c.notCompared)
        notCompared.push_back(n.name + ": " + n.reason);
    if (!notCompared.empty())
        out += ResultsTab::tr("<br><b>Not compared</b> (kept out of the verdict):") +
               htmlList(notCompared);
    return out;
}

} // namespace

void ResultsTab::showComparison(const Comparison& comparison) {
    comparison_->setComparison(comparison);
    // The overall verdict as a coloured chip, then the headline: what drove it, worst first.
    const QColor colour(charts::verdictColor(comparison.verdict));
    // What drove it; with no verdict, why there is none (as the report's first page says).
    const auto dash = comparison.headline.find(" — ");
    const QString drivers = comparison.verdict == Verdict::NoVerdict ? qs(comparison.confidence)
                            : dash == std::string::npos              ? QString()
                                                        : qs(comparison.headline.substr(dash + 5));
    // The machine whose runs these are, when one was picked.
    const QString host = host_->currentData().toString();
    QString on = host.isEmpty() ? QString() : tr(" on <b>%1</b>").arg(host.toHtmlEscaped());
    // The fill level both sides' runs were measured at, when they were filled.
    if (comparison.fillLevel)
        on += tr(" at <b>%1</b>").arg(qs(fillLevelText(comparison.fillLevel)).toHtmlEscaped());
    summary_->setStyleSheet({});
    summary_->setText(
        tr("<b>%1</b> against <b>%2</b>%7: <span style=\"background-color: %3; color: %4;\">"
           "&nbsp;<b>%5</b>&nbsp;</span>%6")
            .arg(qs(comparison.candidate).toHtmlEscaped(), qs(comparison.baseline).toHtmlEscaped(),
                 colour.name(),
                 colour.lightnessF() < 0.5f ? QStringLiteral("white") : QStringLiteral("black"),
                 qs(verdictName(comparison.verdict)),
                 drivers.isEmpty() ? QString() : QStringLiteral(" — ") + drivers.toHtmlEscaped(),
                 on) +
        comparisonDetails(comparison));
    summary_->setToolTip(comparison_->summary());
}

void ResultsTab::showComparisonError(const QString& message) {
    comparison_->clear();
    summary_->setStyleSheet(QStringLiteral("QLabel { color: #b71c1c; }"));
    // The engine names the field host; here it is the Host list beside the layouts.
    const QString field = QStringLiteral("host: ");
    const QString said =
        message.startsWith(field) ? tr("Host: ") + message.mid(field.size()) : message;
    summary_->setText(said.toHtmlEscaped());
}

void ResultsTab::updateRunCount() {
    const int shown = runsProxy_->rowCount();
    const int all = runs_->rowCount();
    runCount_->setText(shown == all ? tr("%1 run(s)").arg(all)
                                    : tr("%1 of %2 run(s)").arg(shown).arg(all));
}

} // namespace lb::gui

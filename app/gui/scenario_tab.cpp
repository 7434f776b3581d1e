// The Scenario tab (see scenario_tab.h).
#include "app/gui/scenario_tab.h"

#include "app/gui/capacity_model.h"
#include "app/gui/gui_types.h"
#include "app/gui/scenario_forms.h"
#include "engine/base/input.h"
#include "engine/campaign/schedule.h"
#include "engine/scenario/scenario_keys.h"
#include "probes/registry.h"

#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>
#include <functional>

namespace lb::gui {

// The common fields: name, description, iterations, work directory and the thresholds, each
// written back to its key's line as it is edited.
QGroupBox* ScenarioTab::makeScenarioForm() {
    auto* form = new QGroupBox(tr("Scenario"));
    auto* formLayout = new QFormLayout(form);
    formLayout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    name_ = new QLineEdit;
    description_ = new QLineEdit;
    iterations_ = new QSpinBox;
    iterations_->setRange(1, 1000);
    iterations_->setKeyboardTracking(false);
    workDir_ = new QLineEdit;
    viable_ = new QDoubleSpinBox;
    notViable_ = new QDoubleSpinBox;
    for (QDoubleSpinBox* box : {viable_, notViable_}) {
        box->setRange(1.0, 100.0);
        box->setDecimals(2);
        box->setSingleStep(0.05);
        box->setKeyboardTracking(false);
    }
    viable_->setToolTip(tr("A cost ratio at or below this is viable"));
    notViable_->setToolTip(tr("A cost ratio at or above this is not viable"));
    formLayout->addRow(tr("Name"), name_);
    formLayout->addRow(tr("Description"), description_);
    formLayout->addRow(tr("Iterations"), iterations_);
    formLayout->addRow(tr("Work directory"), workDir_);
    formLayout->addRow(tr("Viable up to ×"), viable_);
    formLayout->addRow(tr("Not viable from ×"), notViable_);

    connect(name_, &QLineEdit::editingFinished, this,
            [this] { applyFormField({}, QStringLiteral("name"), tomlString(name_->text())); });
    connect(description_, &QLineEdit::editingFinished, this, [this] {
        applyFormField({}, QStringLiteral("description"), tomlString(description_->text()));
    });
    connect(workDir_, &QLineEdit::editingFinished, this, [this] {
        applyFormField({}, QStringLiteral("work_dir"), tomlString(workDir_->text()));
    });
    connect(iterations_, &QSpinBox::valueChanged, this, [this](int v) {
        applyFormField({}, QStringLiteral("iterations"), QString::number(v));
    });
    connect(viable_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        applyFormField(QStringLiteral("thresholds"), QStringLiteral("viable"), tomlFloat(v));
    });
    connect(notViable_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        applyFormField(QStringLiteral("thresholds"), QStringLiteral("not_viable"), tomlFloat(v));
    });

    return form;
}

// The layouts with their capacity, and "Show plan…".
QGroupBox* ScenarioTab::makeLayoutsBox() {
    auto* layoutsBox = new QGroupBox(tr("Layouts and capacity"));
    auto* layoutsLayout = new QVBoxLayout(layoutsBox);
    capacity_ = new CapacityModel(this);
    layoutsView_ = new QTableView;
    layoutsView_->setModel(capacity_);
    layoutsView_->verticalHeader()->hide();
    layoutsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
    layoutsView_->setWordWrap(false);
    layoutsView_->horizontalHeader()->setStretchLastSection(true);
    layoutsView_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layoutsView_->horizontalHeader()->setMinimumSectionSize(40);
    layoutsLayout->addWidget(layoutsView_);
    auto* capacityNote = new QLabel(tr("Capacity of layouts whose disks have sizes; hover a row "
                                       "for where the rest of the raw space goes."));
    capacityNote->setWordWrap(true);
    capacityNote->setStyleSheet(QStringLiteral("color: palette(mid);"));
    layoutsLayout->addWidget(capacityNote);
    planButton_ = new QPushButton(tr("Show plan…"));
    planButton_->setToolTip(tr("The commands each layout runs when it is built, each with its "
                               "undo, before anything runs"));
    planButton_->setEnabled(false);
    connect(planButton_, &QPushButton::clicked, this, &ScenarioTab::planRequested);
    auto* planRow = new QHBoxLayout;
    planRow->addStretch(1);
    planRow->addWidget(planButton_);
    layoutsLayout->addLayout(planRow);

    return layoutsBox;
}

// The raw text, its file's buttons and what is wrong with it.
QWidget* ScenarioTab::makeEditorPane() {
    editor_ = new QPlainTextEdit;
    editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    editor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    editor_->setTabChangesFocus(false);
    problem_ = new QLabel;
    problem_->setWordWrap(true);
    problem_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    file_ = new QLabel(tr("untitled scenario"));
    file_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(file_, 1);
    const std::pair<QString, std::function<void()>> buttons[] = {
        {tr("New"), [this] { emit newRequested(); }},
        {tr("Open…"), [this] { emit openRequested(); }},
        {tr("Save"), [this] { emit saveRequested(false); }},
        {tr("Save as…"), [this] { emit saveRequested(true); }},
    };
    for (const auto& [label, action] : buttons) {
        auto* button = new QPushButton(label);
        connect(button, &QPushButton::clicked, this, action);
        fileRow->addWidget(button);
    }
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(fileRow);
    rightLayout->addWidget(editor_, 1);
    rightLayout->addWidget(problem_);

    return right;
}

ScenarioTab::ScenarioTab(QWidget* parent) : QWidget(parent), probes_(standardProbes()) {
    // Left: the forms, the common fields and the layouts with their capacity first; right: the
    // raw text.
    auto* general = new QWidget;
    auto* generalLayout = new QVBoxLayout(general);
    generalLayout->setContentsMargins(0, 0, 0, 0);
    generalLayout->addWidget(makeScenarioForm());
    generalLayout->addWidget(makeLayoutsBox(), 1);
    formTabs_ = new QTabWidget;
    formTabs_->addTab(general, tr("General"));
    addTableEditor(disks_ = makeDisksEditor(), tr("Disks"));
    addTableEditor(layouts_ = makeLayoutsEditor(), tr("Layouts"));
    addTableEditor(workloads_ = makeWorkloadsEditor(probes_), tr("Workloads"));
    addTableEditor(drills_ = makeDrillsEditor(), tr("Drills"));
    addTableEditor(exports_ = makeExportsEditor(), tr("Exports"));

    QWidget* right = makeEditorPane();
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(formTabs_);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({500, 750}); // the capacity table's columns fit; the editor takes the rest
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(this, &ScenarioTab::pathChanged, this, [this](const QString& path) {
        file_->setText(path.isEmpty() ? tr("untitled scenario") : QFileInfo(path).fileName());
        file_->setToolTip(path);
    });

    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(validationDelayMs);
    connect(debounce_, &QTimer::timeout, this, &ScenarioTab::validate);
    connect(editor_, &QPlainTextEdit::textChanged, debounce_, qOverload<>(&QTimer::start));
}

ScenarioTab::~ScenarioTab() = default;

void ScenarioTab::setScenario(const QString& text, const QString& path) {
    editor_->setPlainText(text);
    editor_->document()->setModified(false);
    if (path != path_) {
        path_ = path;
        emit pathChanged(path_);
    }
    validateNow();
}

bool ScenarioTab::openFile(const QString& path, QString* error) {
    // Checked and bounded like every input: a FIFO or /dev/zero must not hang the window.
    auto text = readInput(ss(path), documentLimit());
    if (!text) {
        *error = qs(text.error().message);
        return false;
    }
    setScenario(QString::fromStdString(*text), QFileInfo(path).absoluteFilePath());
    return true;
}

bool ScenarioTab::saveFile(const QString& path, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    file.write(text().toUtf8());
    if (!file.commit()) {
        *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    editor_->document()->setModified(false);
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (absolute != path_) {
        path_ = absolute;
        emit pathChanged(path_);
        validateNow(); // relative paths in the scenario now resolve against the new folder
    }
    return true;
}

QString ScenarioTab::text() const {
    return editor_->toPlainText();
}

bool ScenarioTab::isModified() const {
    return editor_->document()->isModified();
}

void ScenarioTab::validateNow() {
    debounce_->stop();
    validate();
}

void ScenarioTab::validate() {
    check_ = checkScenario(text(), path_, probes_);
    reloadTables();
    planButton_->setEnabled(check_.ok());
    if (check_.ok()) {
        capacity_->setLayouts(layoutCapacities(*check_.scenario));
        fillForm(*check_.scenario);
        const auto& s = *check_.scenario;
        // The engine's schedule, as plan and the campaign count it (bracketing, drills,
        // adaptive iterations).
        const auto schedule = scheduleCampaign(s, std::nullopt);
        problem_->setStyleSheet(QStringLiteral("color: #1b5e20;"));
        problem_->setText(
            tr("Valid: %1 layout(s), %2 workload(s), %3 iteration(s) — %4 run(s).")
                .arg(s.layouts.size())
                .arg(s.workloads.size())
                .arg(s.adaptive()
                         ? tr("%1 to %2").arg(schedule.minIterations).arg(schedule.maxIterations)
                         : QString::number(s.iterations))
                .arg(qs(describeRunCount(s, schedule))));
        showProblem({});
    } else {
        // The layout list keeps the last valid capacities while the text is being fixed.
        problem_->setStyleSheet(QStringLiteral("color: #b71c1c; font-weight: bold;"));
        problem_->setText(check_.problem.display());
        showProblem(check_.problem);
    }
    if (check_.ok() != lastValid_) {
        lastValid_ = check_.ok();
        emit validityChanged(lastValid_);
    }
    if (check_.ok())
        emit scenarioValid();
}

void ScenarioTab::showProblem(const ScenarioProblem& problem) {
    highlightedLine_ = problem.line;
    QList<QTextEdit::ExtraSelection> selections;
    if (problem.line > 0) {
        const QTextBlock block = editor_->document()->findBlockByNumber(problem.line - 1);
        if (block.isValid()) {
            QTextEdit::ExtraSelection sel;
            sel.format.setBackground(QColor(0xff, 0xd6, 0xd6));
            sel.format.setProperty(QTextFormat::FullWidthSelection, true);
            sel.cursor = QTextCursor(block);
            selections << sel;
        }
    }
    editor_->setExtraSelections(selections);
}

void ScenarioTab::fillForm(const Scenario& s) {
    fillingForm_ = true;
    auto setText = [](QLineEdit* edit, const QString& value) {
        if (!edit->hasFocus() && edit->text() != value)
            edit->setText(value);
    };
    setText(name_, qs(s.name));
    setText(description_, qs(s.description));
    setText(workDir_, qs(s.workDir));
    if (iterations_->value() != s.iterations)
        iterations_->setValue(s.iterations);
    if (viable_->value() != s.thresholds.viableMax)
        viable_->setValue(s.thresholds.viableMax);
    if (notViable_->value() != s.thresholds.notViableMin)
        notViable_->setValue(s.thresholds.notViableMin);
    fillingForm_ = false;
}

void ScenarioTab::applyFormField(const QString& table, const QString& key,
                                 const QString& tomlValue) {
    if (fillingForm_)
        return;
    applyTableEdit(TablePath{{}, 0, ss(table)}, key, ss(tomlValue));
}

void ScenarioTab::replaceText(const QString& edited) {
    if (edited == text())
        return;
    // One undoable edit of the document, so Ctrl+Z in the editor takes the form's change back.
    QTextCursor cursor(editor_->document());
    cursor.beginEditBlock();
    cursor.select(QTextCursor::Document);
    cursor.insertText(edited);
    cursor.endEditBlock();
    validateNow();
}

void ScenarioTab::showFormProblem(const QString& message) {
    problem_->setStyleSheet(QStringLiteral("color: #b71c1c; font-weight: bold;"));
    problem_->setText(message);
}

void ScenarioTab::addTableEditor(TableListEditor* editor, const QString& title) {
    formTabs_->addTab(editor, title);
    connect(editor, &TableListEditor::valueEdited, this, &ScenarioTab::applyTableEdit);
    connect(editor, &TableListEditor::problem, this, &ScenarioTab::showFormProblem);
    connect(editor, &TableListEditor::addRequested, this, [this, editor] { addTable(editor); });
    connect(editor, &TableListEditor::removeRequested, this,
            [this, editor](int index) { removeTable(editor, index); });
}

void ScenarioTab::applyTableEdit(const TablePath& at, const QString& key,
                                 const std::optional<std::string>& value) {
    const auto edited = setScenarioValue(ss(text()), at, ss(key), value);
    if (!edited) {
        showFormProblem(qs(edited.error().message));
        return;
    }
    replaceText(qs(*edited));
}

void ScenarioTab::addTable(TableListEditor* editor) {
    // A new table with the keys that name it; the validation line says what it still needs.
    const int number = editor->list()->count() + 1;
    std::vector<std::pair<std::string, std::string>> keys;
    const auto add = [&](ScenarioTable table, const char* key, const std::string& value) {
        if (auto v = tomlValue(scenarioKey(table, key), value))
            keys.emplace_back(key, *v);
    };
    if (editor == disks_) {
        add(ScenarioTable::Disk, "name", "disk" + std::to_string(number));
    } else if (editor == layouts_) {
        add(ScenarioTable::Layout, "name", "layout" + std::to_string(number));
        add(ScenarioTable::Layout, "kind", std::string(layoutKindName(LayoutKind::Dir)));
    } else if (editor == workloads_) {
        const auto names = probes_.names();
        add(ScenarioTable::Workload, "probe", names.empty() ? std::string() : names.front());
    } else if (editor == drills_) {
        // The drill a layout's bad day needs; the form then offers its disk, spare and fill.
        add(ScenarioTable::Drill, "action", std::string(enumName(DrillAction::FailRebuild)));
    }
    const auto edited = appendScenarioTable(ss(text()), ss(editor->array()), keys);
    if (!edited) {
        showFormProblem(qs(edited.error().message));
        return;
    }
    replaceText(qs(*edited));
    editor->select(editor->list()->count() - 1);
}

void ScenarioTab::removeTable(TableListEditor* editor, int index) {
    const auto edited =
        removeScenarioTable(ss(text()), ss(editor->array()), static_cast<std::size_t>(index));
    if (!edited) {
        showFormProblem(qs(edited.error().message));
        return;
    }
    replaceText(qs(*edited));
}

void ScenarioTab::reloadTables() {
    const std::string current = ss(text());
    for (TableListEditor* editor : {disks_, layouts_, workloads_, drills_, exports_}) {
        // A text that is not TOML leaves the forms as they were, disabled until it is again.
        auto tables = readScenarioArray(current, ss(editor->array()));
        editor->setEnabled(tables.has_value());
        if (tables)
            editor->reload(*tables);
    }
}

} // namespace lb::gui

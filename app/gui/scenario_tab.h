// The Scenario tab: open, edit and save a scenario file. A raw TOML editor validated live (the
// engine's parser on a debounce timer; the error line highlighted and "line N: message" shown),
// and beside it tabbed forms that edit the same text: General (the common top-level fields, and
// the layout list with each layout's capacity and "Show plan…" for the commands each layout runs),
// Disks, Layouts, Workloads and Exports (forms generated from the engine's option tables, see
// scenario_forms.h). A form's edit changes only its key's line in the text; an edit of the text
// reloads the forms.
#pragma once

#include "app/gui/scenario_text.h"
#include "engine/measure/probe.h"
#include "engine/scenario/scenario_edit.h"

#include <QWidget>
#include <optional>
#include <string>

class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QTimer;

namespace lb::gui {

class CapacityModel;
class TableListEditor;

class ScenarioTab : public QWidget {
    Q_OBJECT
public:
    static constexpr int validationDelayMs = 300;

    explicit ScenarioTab(QWidget* parent = nullptr);
    ~ScenarioTab() override;

    // Replaces the text (e.g. the embedded default); `path` is "" for an unsaved scenario.
    void setScenario(const QString& text, const QString& path);
    bool openFile(const QString& path, QString* error);
    bool saveFile(const QString& path, QString* error);

    QString text() const;
    QString path() const { return path_; }
    bool isModified() const;

    // Validates now instead of after the debounce delay.
    void validateNow();
    const ScenarioCheck& lastCheck() const { return check_; }
    // The line highlighted as wrong, 0 when the text is valid.
    int highlightedLine() const { return highlightedLine_; }

    QPlainTextEdit* editor() const { return editor_; }
    QLabel* problemLabel() const { return problem_; }
    CapacityModel* capacityModel() const { return capacity_; }
    QPushButton* planButton() const { return planButton_; }
    // The form tabs: General, Disks, Layouts, Workloads, Exports.
    QTabWidget* formTabs() const { return formTabs_; }
    TableListEditor* disksEditor() const { return disks_; }
    TableListEditor* layoutsEditor() const { return layouts_; }
    TableListEditor* workloadsEditor() const { return workloads_; }
    TableListEditor* drillsEditor() const { return drills_; }
    TableListEditor* exportsEditor() const { return exports_; }

signals:
    void validityChanged(bool valid);
    // The text was checked and is valid: lastCheck() holds the scenario (the Projection tab
    // offers its layouts).
    void scenarioValid();
    void pathChanged(const QString& path);
    // The file buttons; the main window owns the dialogs (File menu too).
    void newRequested();
    void openRequested();
    void saveRequested(bool askPath);
    // "Show plan…": the main window shows the plan of the scenario being edited.
    void planRequested();

private:
    QGroupBox* makeScenarioForm();
    QGroupBox* makeLayoutsBox();
    QWidget* makeEditorPane();
    void validate();
    void showProblem(const ScenarioProblem& problem);
    void fillForm(const Scenario& scenario);
    void applyFormField(const QString& table, const QString& key, const QString& tomlValue);
    void addTableEditor(TableListEditor* editor, const QString& title);
    void applyTableEdit(const TablePath& at, const QString& key,
                        const std::optional<std::string>& value);
    void addTable(TableListEditor* editor);
    void removeTable(TableListEditor* editor, int index);
    void reloadTables();
    void showFormProblem(const QString& message);
    // Replaces the text with `edited` as one undoable edit and validates it.
    void replaceText(const QString& edited);

    const ProbeRegistry probes_;
    QString path_;
    ScenarioCheck check_;
    bool lastValid_ = false;
    int highlightedLine_ = 0;
    bool fillingForm_ = false;

    QPlainTextEdit* editor_ = nullptr;
    QLabel* file_ = nullptr;
    QLabel* problem_ = nullptr;
    QTimer* debounce_ = nullptr;
    CapacityModel* capacity_ = nullptr;
    QTableView* layoutsView_ = nullptr;
    QPushButton* planButton_ = nullptr;
    QLineEdit* name_ = nullptr;
    QLineEdit* description_ = nullptr;
    QSpinBox* iterations_ = nullptr;
    QLineEdit* workDir_ = nullptr;
    QDoubleSpinBox* viable_ = nullptr;
    QDoubleSpinBox* notViable_ = nullptr;
    QTabWidget* formTabs_ = nullptr;
    TableListEditor* disks_ = nullptr;
    TableListEditor* layouts_ = nullptr;
    TableListEditor* workloads_ = nullptr;
    TableListEditor* drills_ = nullptr;
    TableListEditor* exports_ = nullptr;
};

} // namespace lb::gui

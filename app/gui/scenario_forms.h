// The Scenario tab's editors for the scenario's arrays of tables: a list of the [[disks]],
// [[layouts]] or [[workloads]] by name, with Add and Remove, and the selected table's keys as forms
// generated from the engine's option tables (engine/scenario/scenario_keys.h, a probe's options).
// The keys offered follow the table's values: a layout's kind chooses its keys (and a guest's
// [layouts.guest]), a workload's probe its options, so changing either regenerates the form.
// Edits go out as (table, key, TOML value) for the Scenario tab to write into the text; reload()
// shows the text's tables again. The Exports editor lists the layouts and edits their
// [layouts.export].
#pragma once

#include "engine/measure/probe.h"
#include "engine/scenario/scenario_edit.h"

#include <QString>
#include <QWidget>
#include <functional>
#include <optional>
#include <string>
#include <vector>

class QGroupBox;
class QListWidget;
class QPushButton;
class QVBoxLayout;

namespace lb::gui {

class OptionForm;

// One form of a table: the keys of the table itself (sub "") or of one of its subtables, as the
// table's values call for; no keys: the section is hidden.
struct FormSection {
    QString title;
    std::string sub;
    std::function<std::vector<OptionSpec>(const TableValues&)> keys;
};

class TableListEditor : public QWidget {
    Q_OBJECT
public:
    // `array` is the scenario's key ("layouts"); `label` names a table in the list;
    // `canAdd`: Add and Remove buttons.
    TableListEditor(QString array, std::vector<FormSection> sections,
                    std::function<QString(const TableValues&, int)> label, bool canAdd,
                    QWidget* parent = nullptr);

    // Shows the scenario's tables of the array, keeping the selection where it can.
    void reload(const std::vector<TableValues>& tables);
    void select(int index);
    int current() const;
    QString array() const { return array_; }
    QListWidget* list() const { return list_; }
    // The form of a section of the selected table; null when the section has no keys.
    OptionForm* form(int section = 0) const;
    QPushButton* addButton() const { return add_; }
    QPushButton* removeButton() const { return remove_; }

signals:
    // Set (a TOML value) or remove (nullopt) a key of the selected table.
    void valueEdited(const lb::TablePath& at, const QString& key,
                     const std::optional<std::string>& value);
    void addRequested();
    void removeRequested(int index);
    // A value the form cannot write ("x" for a list of numbers).
    void problem(const QString& message);

private:
    struct Section {
        FormSection spec;
        QGroupBox* box = nullptr;
        OptionForm* form = nullptr;
    };
    void showCurrent();
    void connectForm(std::size_t section);

    QString array_;
    std::function<QString(const TableValues&, int)> label_;
    std::vector<TableValues> tables_;
    std::vector<Section> sections_;
    QListWidget* list_ = nullptr;
    QPushButton* add_ = nullptr;
    QPushButton* remove_ = nullptr;
    QWidget* forms_ = nullptr;
    bool reloading_ = false;
};

// The editors of the Scenario tab: disks, layouts (with a guest's table), workloads (the
// registry's probes), drills (their action chooses their keys: a fail-rebuild drill's disk to
// fail, spare, fill, load phases and md rebuild floor) and the layouts' exports.
TableListEditor* makeDisksEditor(QWidget* parent = nullptr);
TableListEditor* makeLayoutsEditor(QWidget* parent = nullptr);
TableListEditor* makeWorkloadsEditor(const ProbeRegistry& probes, QWidget* parent = nullptr);
TableListEditor* makeDrillsEditor(QWidget* parent = nullptr);
TableListEditor* makeExportsEditor(QWidget* parent = nullptr);

} // namespace lb::gui

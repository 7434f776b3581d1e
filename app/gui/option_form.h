// A form generated from an option table (engine/measure/probe.h's OptionSpec): one row per option,
// its field chosen by the option's type — a line edit for text, sizes, paths and lists, a spin box
// for whole numbers, a double spin box for numbers, a check box for flags, a combo box for choices
// — with the help as tooltip and the default as placeholder. It shows values as a scenario writes
// them ("64MiB", "a, b") and reports each edit the person makes; what a value means, and whether
// it is right, is the engine's to say.
#pragma once

#include "engine/measure/probe.h"

#include <QString>
#include <QWidget>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QFormLayout;

namespace lb::gui {

class OptionForm : public QWidget {
    Q_OBJECT
public:
    explicit OptionForm(std::vector<OptionSpec> options, QWidget* parent = nullptr);

    const std::vector<OptionSpec>& options() const { return options_; }
    const OptionSpec* option(const QString& name) const;
    // Shows `values` (name -> form text); an option without one shows its default, or nothing.
    // The field that has the focus keeps what is being typed into it.
    void setValues(const std::map<std::string, std::string>& values);
    // What the form shows for an option as form text; nullopt when it is not set.
    std::optional<QString> value(const QString& name) const;
    // The field of an option (its object name is the option's name).
    QWidget* field(const QString& name) const;

signals:
    // The person set an option (form text, as a scenario writes it) or cleared it.
    void edited(const QString& name, const QString& text);
    void cleared(const QString& name);

private:
    QWidget* makeField(const OptionSpec& spec);
    void display(const OptionSpec& spec, QWidget* field, const std::optional<std::string>& value);
    void lineEdited(const OptionSpec& spec, const QString& text);

    std::vector<OptionSpec> options_;
    std::vector<QWidget*> fields_;         // in the order of options_
    std::map<std::string, QString> shown_; // what each line edit last showed
    bool loading_ = false;
};

} // namespace lb::gui

// The Scenario tab's list-and-form editors (see scenario_forms.h).
#include "app/gui/scenario_forms.h"

#include "app/gui/gui_types.h"
#include "app/gui/option_form.h"
#include "engine/scenario/scenario_keys.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

namespace lb::gui {

namespace {

bool sameKeys(const std::vector<OptionSpec>& a, const std::vector<OptionSpec>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const OptionSpec& x, const OptionSpec& y) {
                          return x.name == y.name && x.type == y.type && x.choices == y.choices;
                      });
}

QString valueOr(const TableValues& t, const char* key, const QString& fallback) {
    const auto it = t.values.find(key);
    return it == t.values.end() || it->second.empty() ? fallback : qs(it->second);
}

} // namespace

TableListEditor::TableListEditor(QString array, std::vector<FormSection> sections,
                                 std::function<QString(const TableValues&, int)> label, bool canAdd,
                                 QWidget* parent)
    : QWidget(parent), array_(std::move(array)), label_(std::move(label)) {
    list_ = new QListWidget;
    list_->setMaximumHeight(110);
    connect(list_, &QListWidget::currentRowChanged, this, [this] {
        if (!reloading_)
            showCurrent();
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(list_);
    if (canAdd) {
        add_ = new QPushButton(tr("Add"));
        remove_ = new QPushButton(tr("Remove"));
        add_->setToolTip(tr("Add a [[%1]] table at the end of the scenario").arg(array_));
        remove_->setToolTip(tr("Remove the selected table from the scenario"));
        connect(add_, &QPushButton::clicked, this, &TableListEditor::addRequested);
        connect(remove_, &QPushButton::clicked, this, [this] {
            if (current() >= 0)
                emit removeRequested(current());
        });
        auto* buttons = new QHBoxLayout;
        buttons->addStretch(1);
        buttons->addWidget(add_);
        buttons->addWidget(remove_);
        layout->addLayout(buttons);
    }
    forms_ = new QWidget;
    auto* formsLayout = new QVBoxLayout(forms_);
    formsLayout->setContentsMargins(0, 0, 0, 0);
    for (auto& spec : sections) {
        Section section{std::move(spec)};
        section.box = new QGroupBox(section.spec.title);
        new QVBoxLayout(section.box);
        section.box->hide();
        formsLayout->addWidget(section.box);
        sections_.push_back(std::move(section));
    }
    formsLayout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(forms_);
    layout->addWidget(scroll, 1);
}

int TableListEditor::current() const {
    return list_->currentRow();
}

OptionForm* TableListEditor::form(int section) const {
    if (section < 0 || static_cast<std::size_t>(section) >= sections_.size())
        return nullptr;
    return sections_[static_cast<std::size_t>(section)].form;
}

void TableListEditor::select(int index) {
    list_->setCurrentRow(index);
    showCurrent();
}

void TableListEditor::reload(const std::vector<TableValues>& tables) {
    tables_ = tables;
    reloading_ = true;
    const int keep = list_->currentRow();
    while (list_->count() > static_cast<int>(tables_.size()))
        delete list_->takeItem(list_->count() - 1);
    for (std::size_t i = 0; i < tables_.size(); ++i) {
        const QString text = label_(tables_[i], static_cast<int>(i));
        if (static_cast<int>(i) < list_->count())
            list_->item(static_cast<int>(i))->setText(text);
        else
            list_->addItem(text);
    }
    const int count = static_cast<int>(tables_.size());
    list_->setCurrentRow(count == 0 ? -1 : std::clamp(keep, 0, count - 1));
    reloading_ = false;
    showCurrent();
}

void TableListEditor::showCurrent() {
    const int row = list_->currentRow();
    if (remove_)
        remove_->setEnabled(row >= 0);
    const TableValues none;
    const TableValues& values = row >= 0 && row < static_cast<int>(tables_.size())
                                    ? tables_[static_cast<std::size_t>(row)]
                                    : none;
    for (std::size_t i = 0; i < sections_.size(); ++i) {
        Section& s = sections_[i];
        const auto keys = row >= 0 ? s.spec.keys(values) : std::vector<OptionSpec>{};
        if (keys.empty()) {
            s.box->hide();
            if (s.form) {
                s.form->deleteLater();
                s.form = nullptr;
            }
            continue;
        }
        if (!s.form || !sameKeys(s.form->options(), keys)) {
            // A new kind or probe: its own keys. The old form may be sending the edit that
            // changed them, so it goes once that is done.
            if (s.form) {
                s.form->hide();
                s.form->deleteLater();
            }
            s.form = new OptionForm(keys);
            s.box->layout()->addWidget(s.form);
            connectForm(i);
        }
        if (s.spec.sub.empty()) {
            s.form->setValues(values.values);
        } else {
            const auto it = values.subtables.find(s.spec.sub);
            s.form->setValues(it == values.subtables.end() ? std::map<std::string, std::string>{}
                                                           : it->second);
        }
        s.box->show();
    }
}

void TableListEditor::connectForm(std::size_t section) {
    OptionForm* form = sections_[section].form;
    const std::string sub = sections_[section].spec.sub;
    const auto path = [this, sub] {
        return TablePath{ss(array_), static_cast<std::size_t>(std::max(0, current())), sub};
    };
    connect(form, &OptionForm::edited, this,
            [this, form, path](const QString& name, const QString& text) {
                const OptionSpec* spec = form->option(name);
                if (!spec || current() < 0)
                    return;
                auto value = tomlValue(*spec, ss(text));
                if (!value) {
                    emit problem(qs(value.error().message));
                    return;
                }
                emit valueEdited(path(), name, *value);
            });
    connect(form, &OptionForm::cleared, this, [this, path](const QString& name) {
        if (current() >= 0)
            emit valueEdited(path(), name, std::nullopt);
    });
}

TableListEditor* makeDisksEditor(QWidget* parent) {
    return new TableListEditor(
        QStringLiteral("disks"),
        {{QObject::tr("Disk"), "",
          [](const TableValues&) { return scenarioKeys(ScenarioTable::Disk); }}},
        [](const TableValues& t, int i) {
            return valueOr(t, "name", QObject::tr("(disk %1)").arg(i + 1));
        },
        true, parent);
}

TableListEditor* makeLayoutsEditor(QWidget* parent) {
    const auto kindOf = [](const TableValues& t) {
        const auto it = t.values.find("kind");
        return it == t.values.end() ? std::nullopt : parseLayoutKind(it->second);
    };
    return new TableListEditor(
        QStringLiteral("layouts"),
        {{QObject::tr("Layout"), "",
          [kindOf](const TableValues& t) {
              // Until the kind is known: its name and kind.
              if (const auto kind = kindOf(t))
                  return layoutKeys(*kind);
              return std::vector<OptionSpec>{scenarioKey(ScenarioTable::Layout, "name"),
                                             scenarioKey(ScenarioTable::Layout, "kind")};
          }},
         {QObject::tr("Guest [layouts.guest]"), "guest",
          [kindOf](const TableValues& t) {
              return kindOf(t) == LayoutKind::Guest ? scenarioKeys(ScenarioTable::Guest)
                                                    : std::vector<OptionSpec>{};
          }}},
        [](const TableValues& t, int i) {
            return valueOr(t, "name", QObject::tr("(layout %1)").arg(i + 1)) +
                   QStringLiteral(" — ") + valueOr(t, "kind", QStringLiteral("?"));
        },
        true, parent);
}

TableListEditor* makeWorkloadsEditor(const ProbeRegistry& probes, QWidget* parent) {
    return new TableListEditor(
        QStringLiteral("workloads"),
        {{QObject::tr("Workload"), "",
          [&probes](const TableValues& t) {
              const auto it = t.values.find("probe");
              return workloadKeys(probes, it == t.values.end() ? nullptr : probes.find(it->second));
          }}},
        [](const TableValues& t, int i) {
            QString text = valueOr(t, "probe", QObject::tr("(workload %1)").arg(i + 1));
            if (const auto it = t.values.find("preset"); it != t.values.end())
                text += QLatin1Char(':') + qs(it->second);
            return valueOr(t, "name", text);
        },
        true, parent);
}

TableListEditor* makeDrillsEditor(QWidget* parent) {
    return new TableListEditor(
        QStringLiteral("drills"),
        {{QObject::tr("Drill"), "",
          [](const TableValues& t) {
              // The action chooses the keys: a fail-rebuild drill's disk, fill and load phases.
              const auto it = t.values.find("action");
              return drillKeys(it == t.values.end() ? std::string_view() : it->second);
          }}},
        [](const TableValues& t, int i) {
            return valueOr(t, "layout", QObject::tr("(drill %1)").arg(i + 1)) +
                   QStringLiteral(" — ") + valueOr(t, "action", QStringLiteral("?"));
        },
        true, parent);
}

TableListEditor* makeExportsEditor(QWidget* parent) {
    const auto group = [](ScenarioTable table) {
        return [table](const TableValues&) { return scenarioKeys(table); };
    };
    return new TableListEditor(
        QStringLiteral("layouts"),
        {{QObject::tr("Export [layouts.export]"), "export", group(ScenarioTable::Export)},
         {QObject::tr("iSCSI"), "export", group(ScenarioTable::ExportIscsi)},
         {QObject::tr("NFS"), "export", group(ScenarioTable::ExportNfs)}},
        [](const TableValues& t, int i) {
            const QString name = valueOr(t, "name", QObject::tr("(layout %1)").arg(i + 1));
            return t.subtables.count("export") ? name + QObject::tr(" — exported") : name;
        },
        false, parent);
}

} // namespace lb::gui

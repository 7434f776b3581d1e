// The Scenario tab's generated forms against its TOML text (app/gui/scenario_forms.h,
// app/gui/option_form.h), under the offscreen platform: for every layout kind and every probe, a
// value set in the form's field is written into the text and parsed with that value, and a value
// edited in the text shows in the field; a new kind or probe brings its own keys; disks are added
// and removed; a layout's export is written under it.
#include "app/gui/option_form.h"
#include "app/gui/scenario_forms.h"
#include "app/gui/scenario_tab.h"
#include "engine/scenario/scenario_keys.h"
#include "probes/registry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using namespace lb;
using namespace lb::gui;

namespace {

const ProbeRegistry& probes() {
    static const ProbeRegistry registry = standardProbes();
    return registry;
}

const QString quick = QStringLiteral(LAYOUTBENCH_SOURCE_DIR "/scenarios/quick.toml");

QStringList names(const std::vector<OptionSpec>& keys) {
    QStringList out;
    for (const auto& k : keys)
        out << QString::fromStdString(k.name);
    return out;
}

// A dir baseline and a candidate of `kind` on block devices (zfs-stripe and guest on an inner
// md-raid1), with one randfile workload.
QString scenarioWith(LayoutKind kind) {
    const bool inner = kind == LayoutKind::ZfsStripe || kind == LayoutKind::Guest;
    const unsigned count = kind == LayoutKind::Dir
                               ? 0
                               : std::max(1u, minimumDisks(inner ? LayoutKind::MdRaid1 : kind));
    QString text = QStringLiteral("name = \"forms\"\nwork_dir = \"/tmp/lb-forms\"\n");
    QStringList disks;
    for (unsigned i = 1; i <= count; ++i) {
        text +=
            QStringLiteral("\n[[disks]]\nname = \"d%1\"\ndevice = \"/dev/lbforms-%1\"\n").arg(i);
        disks << QStringLiteral("\"d%1\"").arg(i);
    }
    text += QStringLiteral("\n[[layouts]]\nname = \"base\"\nkind = \"dir\"\npath = \".\"\n"
                           "baseline = true\n\n[[layouts]]\nname = \"cand\"\nkind = \"%1\"\n")
                .arg(QString::fromStdString(std::string(layoutKindName(kind))));
    text += kind == LayoutKind::Dir ? QStringLiteral("path = \"cand\"\n")
                                    : QStringLiteral("disks = [%1]\n").arg(disks.join(", "));
    if (inner)
        text += QStringLiteral("inner = \"md-raid1\"\n");
    if (kind == LayoutKind::Guest)
        text += QStringLiteral("\n[layouts.guest]\nkernel = \"/boot/vmlinuz\"\n"
                               "target = \"ssh://root@127.0.0.1:2222\"\n");
    return text + QStringLiteral("\n[[workloads]]\nprobe = \"randfile\"\nsize = \"1MiB\"\n");
}

// One dir layout and one workload of `probe`, with what the probe needs to be valid.
QString scenarioWithProbe(const std::string& probe) {
    QString extra;
    if (probe == "fio")
        extra = QStringLiteral("preset = \"seq-read-1m\"\n");
    else if (probe == "netload")
        extra = QStringLiteral("url = \"nfs://127.0.0.1/export/file\"\nruntime = 5\n");
    return QStringLiteral("name = \"probes\"\nwork_dir = \"/tmp/lb-forms\"\n\n[[layouts]]\n"
                          "name = \"base\"\nkind = \"dir\"\npath = \".\"\nbaseline = true\n\n"
                          "[[workloads]]\nprobe = \"%1\"\n")
               .arg(QString::fromStdString(probe)) +
           extra;
}

// Types into a line edit and confirms with Return, as a person does.
void type(QLineEdit* edit, const QString& text) {
    edit->clear();
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

// Picks an entry of a combo box, as a person does (QComboBox says so with activated()).
bool choose(QComboBox* box, const QString& value) {
    const int index = box ? box->findData(value) : -1;
    if (index < 0)
        return false;
    box->setCurrentIndex(index);
    emit box->activated(index);
    return true;
}

// Replaces a line of the text, as typed in the editor, and validates.
void editText(ScenarioTab& tab, const QString& from, const QString& to) {
    QString text = tab.text();
    QVERIFY2(text.contains(from), qPrintable(from + QStringLiteral(" not in\n") + text));
    tab.editor()->setPlainText(text.replace(from, to));
    tab.validateNow();
}

template <typename W> W* field(TableListEditor* editor, int section, const char* name) {
    OptionForm* form = editor->form(section);
    return form ? qobject_cast<W*>(form->field(QString::fromLatin1(name))) : nullptr;
}

const ScenarioLayout& candidate(const ScenarioTab& tab) {
    return tab.lastCheck().scenario->layouts.back();
}

void processDeletes() {
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
}

} // namespace

class ScenarioFormsTest : public QObject {
    Q_OBJECT

private slots:
    void formTabsAreThere() {
        ScenarioTab tab;
        QStringList tabs;
        for (int i = 0; i < tab.formTabs()->count(); ++i)
            tabs << tab.formTabs()->tabText(i);
        QCOMPARE(tabs, QStringList({QStringLiteral("General"), QStringLiteral("Disks"),
                                    QStringLiteral("Layouts"), QStringLiteral("Workloads"),
                                    QStringLiteral("Drills"), QStringLiteral("Exports")}));
    }

    void optionFormFieldsFollowTheTypes() {
        OptionForm form({
            {.name = "flag",
             .label = "Flag",
             .type = OptionType::Bool,
             .help = "a flag",
             .defaultValue = "true"},
            {.name = "count",
             .label = "Count",
             .type = OptionType::Int,
             .help = "a count",
             .min = 1,
             .max = 9,
             .defaultValue = "3"},
            {.name = "ratio", .label = "Ratio", .type = OptionType::Number, .help = "a ratio"},
            {.name = "mode",
             .label = "Mode",
             .type = OptionType::Choice,
             .help = "a mode",
             .defaultValue = "a",
             .choices = {"a", "b"}},
            {.name = "size",
             .label = "Size",
             .type = OptionType::Size,
             .help = "a size",
             .defaultValue = "1G"},
            {.name = "list", .label = "List", .type = OptionType::List, .help = "a list"},
        });
        auto* flag = qobject_cast<QCheckBox*>(form.field(QStringLiteral("flag")));
        auto* count = qobject_cast<QSpinBox*>(form.field(QStringLiteral("count")));
        auto* ratio = qobject_cast<QDoubleSpinBox*>(form.field(QStringLiteral("ratio")));
        auto* mode = qobject_cast<QComboBox*>(form.field(QStringLiteral("mode")));
        auto* size = qobject_cast<QLineEdit*>(form.field(QStringLiteral("size")));
        auto* list = qobject_cast<QLineEdit*>(form.field(QStringLiteral("list")));
        QVERIFY(flag && count && ratio && mode && size && list);
        // Defaults: the flag's state, the spin box's special text, the placeholder.
        QVERIFY(flag->isChecked());
        QCOMPARE(count->value(), count->minimum());
        QCOMPARE(count->specialValueText(), QStringLiteral("3 (default)"));
        QCOMPARE(size->placeholderText(), QStringLiteral("1G"));
        QCOMPARE(mode->currentData().toString(), QString());
        QCOMPARE(size->toolTip().left(6), QStringLiteral("a size"));
        QVERIFY(!form.value(QStringLiteral("count")));

        QSignalSpy edited(&form, &OptionForm::edited);
        QSignalSpy cleared(&form, &OptionForm::cleared);
        form.setValues({{"count", "7"}, {"ratio", "0.8"}, {"mode", "b"}, {"list", "x, y"}});
        QCOMPARE(edited.count(), 0); // showing values is not editing them
        QCOMPARE(count->value(), 7);
        QCOMPARE(ratio->value(), 0.8);
        QCOMPARE(*form.value(QStringLiteral("mode")), QStringLiteral("b"));
        QCOMPARE(list->text(), QStringLiteral("x, y"));

        count->setValue(8);
        flag->click();
        type(size, QStringLiteral("64MiB"));
        QCOMPARE(edited.count(), 3);
        QCOMPARE(edited.at(0).at(1).toString(), QStringLiteral("8"));
        QCOMPARE(edited.at(1).at(1).toString(), QStringLiteral("false"));
        QCOMPARE(edited.at(2).at(1).toString(), QStringLiteral("64MiB"));
        count->setValue(count->minimum());
        type(list, QString());
        QCOMPARE(cleared.count(), 2);
        QCOMPARE(cleared.at(1).at(0).toString(), QStringLiteral("list"));
    }

    void layoutFormsRoundTripEveryKind() {
        for (const LayoutKind kind : allLayoutKinds()) {
            const QString k = QString::fromStdString(std::string(layoutKindName(kind)));
            ScenarioTab tab;
            tab.setScenario(scenarioWith(kind), {});
            QVERIFY2(tab.lastCheck().ok(), qPrintable(k + ": " + tab.problemLabel()->text()));
            TableListEditor* editor = tab.layoutsEditor();
            QCOMPARE(editor->list()->count(), 2);
            editor->select(1);
            QVERIFY(editor->form(0));
            QCOMPARE(names(editor->form(0)->options()), names(layoutKeys(kind)));
            QCOMPARE(*editor->form(0)->value(QStringLiteral("kind")), k);
            QCOMPARE(editor->form(1) != nullptr, kind == LayoutKind::Guest);

            // Form -> text: a key every kind has.
            auto* size = field<QLineEdit>(editor, 0, "precondition_size");
            QVERIFY2(size, qPrintable(k));
            type(size, QStringLiteral("1MiB"));
            QVERIFY2(tab.text().contains(QStringLiteral("\nprecondition_size = \"1MiB\"\n")),
                     qPrintable(tab.text()));
            QVERIFY2(tab.lastCheck().ok(), qPrintable(k + ": " + tab.problemLabel()->text()));
            QCOMPARE(*candidate(tab).preconditionBytes, std::uint64_t{1} << 20);
            // Text -> form.
            editText(tab, QStringLiteral("precondition_size = \"1MiB\""),
                     QStringLiteral("precondition_size = \"2MiB\""));
            QCOMPARE(field<QLineEdit>(editor, 0, "precondition_size")->text(),
                     QStringLiteral("2MiB"));

            // A key of the kind's own, both ways.
            if (isZfs(kind) || kind == LayoutKind::Guest) {
                auto* ashift = field<QSpinBox>(editor, 0, "ashift");
                QVERIFY2(ashift, qPrintable(k));
                ashift->setValue(13);
                QVERIFY(tab.text().contains(QStringLiteral("\nashift = 13\n")));
                QCOMPARE(candidate(tab).ashift, 13u);
                editText(tab, QStringLiteral("ashift = 13"), QStringLiteral("ashift = 9"));
                QCOMPARE(field<QSpinBox>(editor, 0, "ashift")->value(), 9);
            }
            if (isZfs(kind)) {
                // The dataset's write path: offered on ZFS layouts only (below: not on md).
                QVERIFY(choose(field<QComboBox>(editor, 0, "sync"), QStringLiteral("always")));
                QVERIFY(tab.text().contains(QStringLiteral("\nsync = \"always\"\n")));
                QVERIFY2(tab.lastCheck().ok(), qPrintable(k + ": " + tab.problemLabel()->text()));
                QCOMPARE(candidate(tab).zfsAux.sync, ZfsSync::Always);
                QVERIFY(field<QLineEdit>(editor, 0, "log"));
                QVERIFY(field<QLineEdit>(editor, 0, "special"));
            } else {
                QVERIFY2(!field<QComboBox>(editor, 0, "sync"), qPrintable(k));
                QVERIFY2(!field<QLineEdit>(editor, 0, "log"), qPrintable(k));
            }
            if (isMd(kind)) {
                QVERIFY(choose(field<QComboBox>(editor, 0, "filesystem"), QStringLiteral("xfs")));
                QVERIFY(tab.text().contains(QStringLiteral("\nfilesystem = \"xfs\"\n")));
                QCOMPARE(candidate(tab).filesystem, std::string("xfs"));
            }
            if (isMd(kind) || kind == LayoutKind::ZfsStripe || kind == LayoutKind::Guest) {
                type(field<QLineEdit>(editor, 0, "chunk"), QStringLiteral("64K"));
                QVERIFY2(tab.lastCheck().ok(), qPrintable(k + ": " + tab.problemLabel()->text()));
                QCOMPARE(candidate(tab).chunkBytes, std::uint64_t{64} << 10);
                editText(tab, QStringLiteral("chunk = \"64K\""), QStringLiteral("chunk = \"1M\""));
                QCOMPARE(field<QLineEdit>(editor, 0, "chunk")->text(), QStringLiteral("1M"));
            }
            if (kind == LayoutKind::Dir) {
                type(field<QLineEdit>(editor, 0, "path"), QStringLiteral("other"));
                QVERIFY(
                    QString::fromStdString(candidate(tab).path).endsWith(QStringLiteral("/other")));
            }
            if (kind == LayoutKind::Guest) {
                auto* cpus = field<QSpinBox>(editor, 1, "cpus");
                QVERIFY(cpus);
                cpus->setValue(4);
                QVERIFY(tab.text().contains(QStringLiteral("\ncpus = 4\n")));
                QCOMPARE(candidate(tab).guest->cpus, 4);
                editText(tab, QStringLiteral("cpus = 4"), QStringLiteral("cpus = 8"));
                QCOMPARE(field<QSpinBox>(editor, 1, "cpus")->value(), 8);
            }
            // Unset again: the key's line goes and the parser's default is back.
            field<QLineEdit>(editor, 0, "precondition_size")->clear();
            QTest::keyClick(field<QLineEdit>(editor, 0, "precondition_size"), Qt::Key_Return);
            QVERIFY(!tab.text().contains(QStringLiteral("precondition_size")));
            QVERIFY(!candidate(tab).preconditionBytes);
        }
    }

    void layoutKindChangeRegeneratesTheForm() {
        ScenarioTab tab;
        QString error;
        QVERIFY(tab.openFile(quick, &error));
        TableListEditor* editor = tab.layoutsEditor();
        editor->select(1);
        QVERIFY(field<QSpinBox>(editor, 0, "ashift"));
        QVERIFY(!field<QComboBox>(editor, 0, "filesystem"));
        QVERIFY(choose(field<QComboBox>(editor, 0, "kind"), QStringLiteral("md-raid5")));
        processDeletes();
        QVERIFY(tab.text().contains(QStringLiteral("\nkind = \"md-raid5\"\n")));
        QCOMPARE(names(editor->form(0)->options()), names(layoutKeys(LayoutKind::MdRaid5)));
        QVERIFY(field<QComboBox>(editor, 0, "filesystem"));
        QVERIFY(!field<QSpinBox>(editor, 0, "ashift"));
        // The engine says what is wrong now: md arrays are not built on files.
        QVERIFY(!tab.lastCheck().ok());
        QVERIFY2(tab.problemLabel()->text().contains(QStringLiteral("block devices")),
                 qPrintable(tab.problemLabel()->text()));
        // A guest brings [layouts.guest]'s form.
        QVERIFY(choose(field<QComboBox>(editor, 0, "kind"), QStringLiteral("guest")));
        processDeletes();
        QVERIFY(editor->form(1));
        QCOMPARE(names(editor->form(1)->options()), names(scenarioKeys(ScenarioTable::Guest)));
        // Undo in the text takes both edits back, and the form follows.
        tab.editor()->undo();
        tab.editor()->undo();
        tab.validateNow();
        processDeletes();
        QVERIFY(tab.lastCheck().ok());
        QCOMPARE(*editor->form(0)->value(QStringLiteral("kind")), QStringLiteral("zfs-raidz1"));
        QVERIFY(!editor->form(1));
    }

    void workloadFormsRoundTripEveryProbe() {
        for (const auto& probeName : probes().names()) {
            const QString p = QString::fromStdString(probeName);
            const Probe* probe = probes().find(probeName);
            ScenarioTab tab;
            tab.setScenario(scenarioWithProbe(probeName), {});
            QVERIFY2(tab.lastCheck().ok(), qPrintable(p + ": " + tab.problemLabel()->text()));
            TableListEditor* editor = tab.workloadsEditor();
            QCOMPARE(editor->list()->count(), 1);
            editor->select(0);
            QCOMPARE(names(editor->form(0)->options()), names(workloadKeys(probes(), probe)));

            // The probe's first whole-number option with a default, else its first size.
            const auto& options = probe->options();
            const auto number = std::find_if(options.begin(), options.end(), [](const auto& o) {
                return o.type == OptionType::Int && !o.defaultValue.empty() &&
                       (!o.max || *o.max > std::stoll(o.defaultValue) + 1);
            });
            const auto size = std::find_if(options.begin(), options.end(), [](const auto& o) {
                return o.type == OptionType::Size;
            });
            QVERIFY2(number != options.end() || size != options.end(), qPrintable(p));
            const auto& lw = [&tab]() -> const ScenarioWorkload& {
                return tab.lastCheck().scenario->workloads.front();
            };
            if (number != options.end()) {
                const QString key = QString::fromStdString(number->name);
                const int value = std::stoi(number->defaultValue) + 1;
                auto* spin = field<QSpinBox>(editor, 0, number->name.c_str());
                QVERIFY2(spin, qPrintable(p + "." + key));
                spin->setValue(value);
                QVERIFY2(tab.text().contains(QStringLiteral("\n%1 = %2\n").arg(key).arg(value)),
                         qPrintable(tab.text()));
                QVERIFY2(tab.lastCheck().ok(), qPrintable(p + ": " + tab.problemLabel()->text()));
                QCOMPARE(lw().options.integer(number->name), std::int64_t{value});
                QVERIFY(lw().options.given(number->name));
                editText(tab, QStringLiteral("%1 = %2").arg(key).arg(value),
                         QStringLiteral("%1 = %2").arg(key).arg(value + 1));
                QCOMPARE(field<QSpinBox>(editor, 0, number->name.c_str())->value(), value + 1);
                QCOMPARE(lw().options.integer(number->name), std::int64_t{value + 1});
            } else {
                const QString key = QString::fromStdString(size->name);
                type(field<QLineEdit>(editor, 0, size->name.c_str()), QStringLiteral("2MiB"));
                QVERIFY2(tab.text().contains(QStringLiteral("\n%1 = \"2MiB\"\n").arg(key)),
                         qPrintable(tab.text()));
                QVERIFY2(tab.lastCheck().ok(), qPrintable(p + ": " + tab.problemLabel()->text()));
                QCOMPARE(lw().options.bytes(size->name), std::uint64_t{2} << 20);
                editText(tab, QStringLiteral("%1 = \"2MiB\"").arg(key),
                         QStringLiteral("%1 = \"3MiB\"").arg(key));
                QCOMPARE(field<QLineEdit>(editor, 0, size->name.c_str())->text(),
                         QStringLiteral("3MiB"));
                QCOMPARE(lw().options.bytes(size->name), std::uint64_t{3} << 20);
            }
            // A workload's own key: its timeout.
            field<QSpinBox>(editor, 0, "timeout")->setValue(120);
            QCOMPARE(lw().timeoutSeconds, 120);
        }
    }

    void workloadProbeChangeRegeneratesTheForm() {
        ScenarioTab tab;
        QString error;
        QVERIFY(tab.openFile(quick, &error));
        TableListEditor* editor = tab.workloadsEditor();
        QCOMPARE(editor->list()->count(), 5);
        QCOMPARE(editor->list()->item(0)->text(), QStringLiteral("fio:seq-write-1m"));
        editor->select(3); // randfile
        QVERIFY(!field<QSpinBox>(editor, 0, "files"));
        QVERIFY(choose(field<QComboBox>(editor, 0, "probe"), QStringLiteral("bonnie")));
        processDeletes();
        QVERIFY(tab.text().contains(QStringLiteral("probe = \"bonnie\"\nsize = \"128M\"")));
        QCOMPARE(names(editor->form(0)->options()),
                 names(workloadKeys(probes(), probes().find("bonnie"))));
        auto* files = field<QSpinBox>(editor, 0, "files");
        QVERIFY(files);
        files->setValue(0);
        QVERIFY(tab.lastCheck().ok());
        QCOMPARE(tab.lastCheck().scenario->workloads.at(3).options.integer("files"),
                 std::int64_t{0});
    }

    void disksAreAddedEditedAndRemoved() {
        ScenarioTab tab;
        QString error;
        QVERIFY(tab.openFile(quick, &error));
        TableListEditor* editor = tab.disksEditor();
        QCOMPARE(editor->list()->count(), 4);
        editor->select(0);
        type(field<QLineEdit>(editor, 0, "size"), QStringLiteral("1GiB"));
        QVERIFY(tab.lastCheck().ok());
        QCOMPARE(tab.lastCheck().scenario->disks.front().sizeBytes, std::uint64_t{1} << 30);
        QVERIFY(tab.text().contains(QStringLiteral("name = \"vdev1\"\nfile = \"vdev1.img\"\n"
                                                   "size = \"1GiB\"\n")));

        editor->addButton()->click();
        QCOMPARE(editor->list()->count(), 5);
        QCOMPARE(editor->current(), 4);
        QVERIFY(tab.text().endsWith(QStringLiteral("\n[[disks]]\nname = \"disk5\"\n")));
        QVERIFY(!tab.lastCheck().ok()); // a disk needs a device or a file
        type(field<QLineEdit>(editor, 0, "file"), QStringLiteral("vdev5.img"));
        type(field<QLineEdit>(editor, 0, "size"), QStringLiteral("512MiB"));
        QVERIFY2(tab.lastCheck().ok(), qPrintable(tab.problemLabel()->text()));
        QCOMPARE(tab.lastCheck().scenario->disks.size(), std::size_t{5});
        QCOMPARE(tab.lastCheck().scenario->disks.back().name, std::string("disk5"));

        editor->select(4);
        editor->removeButton()->click();
        QCOMPARE(editor->list()->count(), 4);
        QVERIFY(tab.lastCheck().ok());
        QCOMPARE(tab.lastCheck().scenario->disks.size(), std::size_t{4});
        QVERIFY(!tab.text().contains(QStringLiteral("disk5")));
    }

    // A fail-rebuild drill made in its form: Add writes the action, the form offers that action's
    // keys (the engine's drillKeys), and what is typed there is the scenario's drill; another
    // action brings its own keys.
    void drillFormWritesAFailRebuildDrill() {
        ScenarioTab tab;
        QString text = QStringLiteral("name = \"drills\"\nwork_dir = \"/tmp/lb-forms\"\n");
        for (int i = 1; i <= 4; ++i)
            text += QStringLiteral("\n[[disks]]\nname = \"d%1\"\ndevice = \"/dev/lbforms-%1\"\n")
                        .arg(i);
        text +=
            QStringLiteral("\n[[layouts]]\nname = \"base\"\nkind = \"dir\"\npath = \".\"\n"
                           "baseline = true\n\n[[layouts]]\nname = \"r5\"\nkind = \"md-raid5\"\n"
                           "disks = [\"d1\", \"d2\", \"d3\"]\n\n[[workloads]]\n"
                           "probe = \"randfile\"\nsize = \"1MiB\"\n");
        tab.setScenario(text, QString());
        tab.validateNow();
        QVERIFY2(tab.lastCheck().ok(), qPrintable(tab.problemLabel()->text()));
        TableListEditor* editor = tab.drillsEditor();
        QCOMPARE(editor->list()->count(), 0);
        editor->addButton()->click();
        processDeletes();
        QCOMPARE(editor->list()->count(), 1);
        QVERIFY2(tab.text().endsWith(QStringLiteral("\n[[drills]]\naction = \"fail-rebuild\"\n")),
                 qPrintable(tab.text()));
        QCOMPARE(names(editor->form(0)->options()), names(drillKeys("fail-rebuild")));
        type(field<QLineEdit>(editor, 0, "layout"), QStringLiteral("r5"));
        type(field<QLineEdit>(editor, 0, "disk"), QStringLiteral("d2"));
        type(field<QLineEdit>(editor, 0, "disks"), QStringLiteral("d4"));
        field<QDoubleSpinBox>(editor, 0, "fill")->setValue(0.5);
        field<QSpinBox>(editor, 0, "phase_seconds")->setValue(20);
        field<QSpinBox>(editor, 0, "sync_speed_min")->setValue(50000);
        tab.validateNow();
        QVERIFY2(tab.lastCheck().ok(), qPrintable(tab.problemLabel()->text()));
        const ScenarioDrill& d = tab.lastCheck().scenario->drills.at(0);
        QCOMPARE(d.layout, std::string("r5"));
        QVERIFY(d.action == DrillAction::FailRebuild);
        QCOMPARE(d.failDisk, std::string("d2"));
        QCOMPARE(d.disks, std::vector<std::string>{"d4"});
        QCOMPARE(d.fill, 0.5);
        QCOMPARE(d.phaseSeconds, 20);
        QCOMPARE(d.syncSpeedMinKiB, 50000);
        QVERIFY(d.failure == DrillFailure::Admin);
        QCOMPARE(editor->list()->item(0)->text(), QStringLiteral("r5 — fail-rebuild"));
        // The ways a member fails, as the engine names them. The error target needs a member
        // that is a device-mapper device: on /dev/lbforms-2 the form shows the engine's refusal,
        // naming the line and the field.
        QComboBox* failure = field<QComboBox>(editor, 0, "fail");
        QVERIFY(failure);
        QStringList ways;
        for (int i = 0; i < failure->count(); ++i)
            ways << failure->itemText(i);
        QCOMPARE(ways, (QStringList{QStringLiteral("admin (default)"), QStringLiteral("admin"),
                                    QStringLiteral("pull"), QStringLiteral("error")}));
        QVERIFY(choose(failure, QStringLiteral("error")));
        tab.validateNow();
        QVERIFY2(tab.text().contains(QStringLiteral("fail = \"error\"")), qPrintable(tab.text()));
        QVERIFY(!tab.lastCheck().ok());
        const QString refusal = tab.problemLabel()->text();
        QVERIFY2(refusal.contains(QStringLiteral("drills.fail: \"error\" swaps device-mapper's "
                                                 "error target under the member, but disk 'd2' "
                                                 "(/dev/lbforms-2) is not a device-mapper device")),
                 qPrintable(refusal));
        QVERIFY(choose(failure, QStringLiteral("admin")));
        tab.validateNow();
        QVERIFY2(tab.lastCheck().ok(), qPrintable(tab.problemLabel()->text()));
        // Growing the array instead: the fail-rebuild keys leave the form, the reader comes.
        QVERIFY(choose(field<QComboBox>(editor, 0, "action"), QStringLiteral("md-grow")));
        processDeletes();
        QCOMPARE(names(editor->form(0)->options()), names(drillKeys("md-grow")));
        QVERIFY(!field<QLineEdit>(editor, 0, "disk"));
        QVERIFY(field<QCheckBox>(editor, 0, "read_load"));
    }

    void exportFormWritesTheLayoutsExport() {
        ScenarioTab tab;
        QString error;
        QVERIFY(tab.openFile(quick, &error));
        TableListEditor* editor = tab.exportsEditor();
        QCOMPARE(editor->list()->count(), 2);
        editor->select(1);
        QVERIFY(choose(field<QComboBox>(editor, 0, "iscsi"), QStringLiteral("tgt")));
        QVERIFY2(tab.text().contains(QStringLiteral("\n[layouts.export]\niscsi = \"tgt\"\n")),
                 qPrintable(tab.text()));
        QVERIFY2(tab.lastCheck().ok(), qPrintable(tab.problemLabel()->text()));
        const auto exported = [&tab] { return *tab.lastCheck().scenario->layouts.at(1).exported; };
        QVERIFY(exported().iscsi == IscsiTarget::Tgt);
        QVERIFY(!tab.lastCheck().scenario->layouts.at(0).exported);
        QVERIFY(editor->list()->item(1)->text().contains(QStringLiteral("exported")));

        field<QSpinBox>(editor, 1, "portal_port")->setValue(3261);
        QCOMPARE(exported().portalPort, 3261);
        QVERIFY(choose(field<QComboBox>(editor, 0, "nfs"), QStringLiteral("kernel")));
        type(field<QLineEdit>(editor, 2, "nfs_versions"), QStringLiteral("4"));
        QVERIFY(tab.text().contains(QStringLiteral("\nnfs_versions = [4]\n")));
        QVERIFY2(tab.lastCheck().ok(), qPrintable(tab.problemLabel()->text()));
        QCOMPARE(exported().nfsVersions, std::vector<int>{4});
        // A list the form cannot write is said, and the text stays.
        const QString before = tab.text();
        type(field<QLineEdit>(editor, 2, "nfs_versions"), QStringLiteral("four"));
        QCOMPARE(tab.text(), before);
        QVERIFY(tab.problemLabel()->text().contains(QStringLiteral("nfs_versions")));

        editText(tab, QStringLiteral("portal_port = 3261"), QStringLiteral("portal_port = 3262"));
        QCOMPARE(field<QSpinBox>(editor, 1, "portal_port")->value(), 3262);
        // The text no longer TOML: the forms wait, disabled.
        editText(tab, QStringLiteral("[layouts.export]"), QStringLiteral("[layouts.export"));
        QVERIFY(!editor->isEnabled());
        editText(tab, QStringLiteral("[layouts.export"), QStringLiteral("[layouts.export]"));
        QVERIFY(editor->isEnabled());
    }
};

QTEST_MAIN(ScenarioFormsTest)
#include "scenario_forms_test.moc"

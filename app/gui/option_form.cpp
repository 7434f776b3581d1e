// A form generated from an option table (see option_form.h).
#include "app/gui/option_form.h"

#include "app/gui/gui_types.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>
#include <climits>

namespace lb::gui {

namespace {

int clampInt(std::int64_t v) {
    return static_cast<int>(std::clamp<std::int64_t>(v, INT_MIN + 1, INT_MAX));
}

// What an unset field says: the default, or a dash when the option has none.
QString unsetText(const OptionSpec& spec) {
    return spec.defaultValue.empty() ? QStringLiteral("—")
                                     : QObject::tr("%1 (default)").arg(qs(spec.defaultValue));
}

} // namespace

OptionForm::OptionForm(std::vector<OptionSpec> options, QWidget* parent)
    : QWidget(parent), options_(std::move(options)) {
    auto* layout = new QFormLayout(this);
    layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->setContentsMargins(0, 0, 0, 0);
    for (const auto& spec : options_) {
        QWidget* field = makeField(spec);
        field->setObjectName(qs(spec.name));
        const QString tip = qs(spec.help) + QStringLiteral("\n(") + qs(spec.name) +
                            (spec.required ? tr(", required)") : QStringLiteral(")"));
        field->setToolTip(tip);
        auto* label =
            new QLabel(qs(spec.label) + (spec.required ? QStringLiteral(" *") : QString()));
        label->setToolTip(tip);
        label->setBuddy(field);
        layout->addRow(label, field);
        fields_.push_back(field);
        display(spec, field, std::nullopt);
    }
}

QWidget* OptionForm::makeField(const OptionSpec& spec) {
    switch (spec.type) {
    case OptionType::Bool: {
        auto* box = new QCheckBox;
        connect(box, &QCheckBox::clicked, this, [this, name = qs(spec.name)](bool on) {
            if (!loading_)
                emit edited(name, on ? QStringLiteral("true") : QStringLiteral("false"));
        });
        return box;
    }
    case OptionType::Int: {
        auto* box = new QSpinBox;
        // One below the minimum stands for "not set" and says the default.
        const int low = clampInt(spec.min.value_or(INT_MIN + 2));
        box->setRange(low - 1, clampInt(spec.max.value_or(INT_MAX)));
        box->setSpecialValueText(unsetText(spec));
        box->setKeyboardTracking(false);
        connect(box, &QSpinBox::valueChanged, this, [this, box, name = qs(spec.name)](int v) {
            if (loading_)
                return;
            if (v == box->minimum())
                emit cleared(name);
            else
                emit edited(name, QString::number(v));
        });
        return box;
    }
    case OptionType::Number: {
        auto* box = new QDoubleSpinBox;
        box->setDecimals(3);
        box->setSingleStep(0.05);
        const double low = static_cast<double>(spec.min.value_or(0));
        box->setRange(low - box->singleStep(), spec.max ? static_cast<double>(*spec.max) : 1.0e6);
        box->setSpecialValueText(unsetText(spec));
        box->setKeyboardTracking(false);
        connect(box, &QDoubleSpinBox::valueChanged, this,
                [this, box, name = qs(spec.name)](double v) {
                    if (loading_)
                        return;
                    if (v <= box->minimum())
                        emit cleared(name);
                    else
                        emit edited(name, QString::number(v, 'g', 15));
                });
        return box;
    }
    case OptionType::Choice: {
        auto* box = new QComboBox;
        if (!spec.required)
            box->addItem(unsetText(spec), QString());
        for (const auto& c : spec.choices)
            box->addItem(qs(c), qs(c));
        connect(box, &QComboBox::activated, this, [this, box, name = qs(spec.name)](int index) {
            if (loading_)
                return;
            const QString v = box->itemData(index).toString();
            if (v.isEmpty())
                emit cleared(name);
            else
                emit edited(name, v);
        });
        return box;
    }
    case OptionType::Size:
    case OptionType::String:
    case OptionType::Path:
    case OptionType::List:
    case OptionType::IntList:
        break;
    }
    auto* edit = new QLineEdit;
    edit->setPlaceholderText(qs(spec.defaultValue));
    connect(edit, &QLineEdit::editingFinished, this,
            [this, edit, spec] { lineEdited(spec, edit->text()); });
    return edit;
}

void OptionForm::lineEdited(const OptionSpec& spec, const QString& text) {
    if (loading_ || shown_[spec.name] == text)
        return;
    shown_[spec.name] = text;
    if (text.trimmed().isEmpty())
        emit cleared(qs(spec.name));
    else
        emit edited(qs(spec.name), text.trimmed());
}

const OptionSpec* OptionForm::option(const QString& name) const {
    const auto it = std::find_if(options_.begin(), options_.end(),
                                 [&](const OptionSpec& s) { return qs(s.name) == name; });
    return it == options_.end() ? nullptr : &*it;
}

QWidget* OptionForm::field(const QString& name) const {
    for (std::size_t i = 0; i < options_.size(); ++i)
        if (qs(options_[i].name) == name)
            return fields_[i];
    return nullptr;
}

void OptionForm::setValues(const std::map<std::string, std::string>& values) {
    for (std::size_t i = 0; i < options_.size(); ++i) {
        if (fields_[i]->hasFocus())
            continue;
        const auto it = values.find(options_[i].name);
        display(options_[i], fields_[i],
                it == values.end() ? std::nullopt : std::optional<std::string>(it->second));
    }
}

void OptionForm::display(const OptionSpec& spec, QWidget* field,
                         const std::optional<std::string>& value) {
    loading_ = true;
    const QString text = value ? qs(*value) : QString();
    if (auto* box = qobject_cast<QCheckBox*>(field)) {
        box->setChecked(value ? *value == "true" : spec.defaultValue == "true");
    } else if (auto* spin = qobject_cast<QSpinBox*>(field)) {
        bool ok = false;
        const int v = text.toInt(&ok);
        spin->setValue(ok && v > spin->minimum() ? v : spin->minimum());
    } else if (auto* dspin = qobject_cast<QDoubleSpinBox*>(field)) {
        bool ok = false;
        const double v = text.toDouble(&ok);
        dspin->setValue(ok && v > dspin->minimum() ? v : dspin->minimum());
    } else if (auto* combo = qobject_cast<QComboBox*>(field)) {
        int index = combo->findData(text);
        if (index < 0 && value) { // a value the table does not offer: shown as written
            combo->addItem(text, text);
            index = combo->count() - 1;
        }
        combo->setCurrentIndex(index);
    } else if (auto* edit = qobject_cast<QLineEdit*>(field)) {
        if (edit->text() != text)
            edit->setText(text);
        shown_[spec.name] = text;
    }
    loading_ = false;
}

std::optional<QString> OptionForm::value(const QString& name) const {
    const OptionSpec* spec = option(name);
    QWidget* f = field(name);
    if (!spec || !f)
        return std::nullopt;
    if (auto* box = qobject_cast<QCheckBox*>(f))
        return box->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
    if (auto* spin = qobject_cast<QSpinBox*>(f))
        return spin->value() == spin->minimum()
                   ? std::nullopt
                   : std::optional<QString>(QString::number(spin->value()));
    if (auto* dspin = qobject_cast<QDoubleSpinBox*>(f))
        return dspin->value() <= dspin->minimum()
                   ? std::nullopt
                   : std::optional<QString>(QString::number(dspin->value(), 'g', 15));
    if (auto* combo = qobject_cast<QComboBox*>(f)) {
        const QString v = combo->currentData().toString();
        return v.isEmpty() ? std::nullopt : std::optional<QString>(v);
    }
    if (auto* edit = qobject_cast<QLineEdit*>(f))
        return edit->text().isEmpty() ? std::nullopt : std::optional<QString>(edit->text());
    return std::nullopt;
}

} // namespace lb::gui

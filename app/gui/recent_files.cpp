// Recently opened databases in QSettings (see recent_files.h).
#include "app/gui/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace lb::gui {

RecentFiles::RecentFiles(QString key) : key_(std::move(key)) {}

QStringList RecentFiles::list() const {
    return QSettings().value(key_).toStringList();
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList files = list();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > maxEntries)
        files.removeLast();
    QSettings().setValue(key_, files);
}

void RecentFiles::remove(const QString& path) {
    QStringList files = list();
    files.removeAll(QFileInfo(path).absoluteFilePath());
    QSettings().setValue(key_, files);
}

void RecentFiles::clear() {
    QSettings().remove(key_);
}

} // namespace lb::gui

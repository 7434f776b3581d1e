// The recently opened databases, newest first, kept in QSettings ("recentDatabases").
#pragma once

#include <QStringList>

namespace lb::gui {

class RecentFiles {
public:
    static constexpr int maxEntries = 8;

    explicit RecentFiles(QString key = QStringLiteral("recentDatabases"));

    QStringList list() const;
    // Moves (or adds) the path to the front, as an absolute path.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

private:
    QString key_;
};

} // namespace lb::gui

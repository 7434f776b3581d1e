// layoutbench-gui: the desktop app. `layoutbench-gui [--db PATH]` opens the window, with the
// database when one is given. --help and --version work without a display; bad usage exits with
// status 2, as the command line does.
#include "app/gui/main_window.h"
#include "engine/store/sqlite.h"
#include "layoutbench_version.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QStatusBar>
#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication::setOrganizationName(QStringLiteral("layoutbench"));
    QCoreApplication::setApplicationName(QStringLiteral("layoutbench-gui"));
    QCoreApplication::setApplicationVersion(QString::fromUtf8(lb::kVersionText));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Benchmark storage layouts, keep every result, compare a candidate "
                       "against a baseline."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption db(QStringList{QStringLiteral("db")},
                                QStringLiteral("Results database to open."),
                                QStringLiteral("PATH"));
    parser.addOption(db);
    auto usage = [&parser] {
        return parser.helpText().replace(QStringLiteral("<executable_name>"),
                                         QStringLiteral("layoutbench-gui"));
    };
    // --help and --version need no display: answered before the QApplication exists.
    for (int i = 1; i < argc; ++i) {
        const QString a = QString::fromLocal8Bit(argv[i]);
        if (a == QStringLiteral("-h") || a == QStringLiteral("--help")) {
            std::printf("%s", qPrintable(usage()));
            return 0;
        }
        if (a == QStringLiteral("-v") || a == QStringLiteral("-V") ||
            a == QStringLiteral("--version")) {
            std::printf("layoutbench-gui %s\n", qPrintable(QCoreApplication::applicationVersion()));
            return 0;
        }
    }

    // QApplication takes its own options (-platform, -style ...) out of argv first.
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("layoutbench"));
    // The icon and desktop entry the package installs (packaging/): desktops match the window
    // to its entry by this name.
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/layoutbench.png")));
    QGuiApplication::setDesktopFileName(QStringLiteral("layoutbench-gui"));
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (!parser.parse(arguments) || !parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "layoutbench-gui: %s\n%s",
                     qPrintable(parser.errorText().isEmpty()
                                    ? QStringLiteral("unexpected argument '%1'")
                                          .arg(parser.positionalArguments().value(0))
                                    : parser.errorText()),
                     qPrintable(usage()));
        return 2;
    }
    lb::gui::MainWindow window;
    // The store's worker threads wait while another program writes to the database (a long
    // import commits in batches); the status bar says so, as the command line does on stderr.
    lb::sql::setBusyWait(
        {.report = [&window](const std::string& path, std::chrono::seconds waited) {
            QMetaObject::invokeMethod(
                &window,
                [&window, file = QString::fromStdString(path), s = waited.count()] {
                    window.statusBar()->showMessage(
                        QCoreApplication::translate(
                            "main", "%1: another program is writing to the database; waiting "
                                    "(%2 s so far)")
                            .arg(file)
                            .arg(s));
                },
                Qt::QueuedConnection);
        }});
    window.show();
    if (parser.isSet(db))
        window.openDatabase(parser.value(db));
    const int status = QApplication::exec();
    lb::sql::setBusyWait({}); // no report may reach the window once it is being destroyed
    return status;
}

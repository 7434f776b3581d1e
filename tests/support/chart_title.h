// The title a chart builder set (reports/charts.h: the QCPTextElement "chart-title"), for tests.
#pragma once

#include <qcustomplot.h>

namespace lb::test {

inline QString chartTitle(QCustomPlot& plot) {
    for (int i = 0; i < plot.plotLayout()->elementCount(); ++i)
        if (auto* t = qobject_cast<QCPTextElement*>(plot.plotLayout()->elementAt(i));
            t && t->objectName() == "chart-title")
            return t->text();
    return {};
}

} // namespace lb::test

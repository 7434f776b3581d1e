// Builds the GUI tests' fixture database with lb::importFiles (see fixture.h).
#include "tests/gui/fixture.h"

#include "engine/store/store.h"
#include "probes/import.h"

namespace lb::gui::test {

Expected<void> createFixtureDatabase(const std::string& path) {
    auto store = Store::open(path);
    if (!store)
        return fail(store.error());
    const std::string data = LAYOUTBENCH_TEST_DATA_DIR;
    const std::string bonnie = data + "/bonnie++/1.97/";
    const std::string fio = data + "/fio/3.33/";
    const ImportRequest requests[] = {
        {baselineLayout,
         "server",
         "zfs-raidz2",
         {bonnie + "seed-bare-metal.csv", fio + "seq_read.json", fio + "rand_write_4k.json"}},
        // The same fio outputs on both sides: the candidate imports them again on purpose.
        {candidateLayout,
         "server",
         "guest",
         {bonnie + "seed-guest.csv", fio + "seq_read.json", fio + "rand_write_4k.json",
          fio + "failed_notdir.json"},
         true},
    };
    for (const auto& request : requests)
        if (auto imported = importFiles(*store, request); !imported)
            return fail(imported.error());
    return {};
}

} // namespace lb::gui::test

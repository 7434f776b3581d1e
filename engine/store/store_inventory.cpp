// The store's hosts, their disks and the layouts measured on them.
#include "engine/base/joined.h"
#include "engine/base/suggest.h"
#include "engine/store/store.h"
#include "engine/store/store_internal.h"

namespace lb {

Expected<std::int64_t> Store::ensureHost(const std::string& name,
                                         const std::string& inventoryJson) {
    LB_TRY(ins, statement("INSERT INTO host(name, inventory) VALUES(?1, ?2) "
                          "ON CONFLICT(name) DO UPDATE SET inventory = CASE WHEN ?2 = '{}' "
                          "THEN inventory ELSE ?2 END RETURNING id"));
    ins->bind(1, name).bind(2, inventoryJson);
    LB_TRY_VOID(ins->step());
    return ins->columnInt(0);
}

Expected<std::string> Store::hostInventory(const std::string& host) {
    LB_TRY(q, statement("SELECT inventory FROM host WHERE name = ?1"));
    q->bind(1, host);
    LB_TRY(row, q->step());
    return row ? q->columnText(0) : std::string("{}");
}

Expected<void> Store::recordDisks(std::int64_t hostId, const std::vector<DiskRecord>& disks) {
    LB_TRY(q, statement("INSERT INTO disk(host_id, path, model, serial, size_bytes, rotational) "
                        "VALUES(?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(host_id, path) DO UPDATE SET "
                        "model = excluded.model, serial = excluded.serial, size_bytes = "
                        "excluded.size_bytes, rotational = excluded.rotational"));
    for (const auto& d : disks) {
        q->bind(1, hostId).bind(2, d.path).bind(3, d.model).bind(4, d.serial).bind(5, d.sizeBytes);
        if (d.rotational)
            q->bind(6, *d.rotational ? 1 : 0);
        else
            q->bindNull(6);
        LB_TRY_VOID(q->run());
    }
    return {};
}

Expected<std::int64_t> Store::ensureLayout(const std::string& name, const std::string& kind,
                                           const std::string& specJson,
                                           std::optional<std::int64_t> hostId) {
    LB_TRY(existing, findLayout(name));
    if (existing) {
        if (existing->kind != kind)
            return badInput("layout '" + name + "' already exists with kind '" + existing->kind +
                            "', not '" + kind + "'");
        return existing->id;
    }
    LB_TRY(ins, statement("INSERT INTO layout(name, kind, spec, host_id, created_at) "
                          "VALUES(?1, ?2, ?3, ?4, ?5)"));
    LB_TRY_VOID(
        ins->bind(1, name).bind(2, kind).bind(3, specJson).bind(4, hostId).bind(5, now()).run());
    return db_.lastInsertId();
}

Expected<std::optional<LayoutRecord>> Store::findLayout(const std::string& name) {
    LB_TRY(q, statement("SELECT l.id, l.name, l.kind, l.spec, COALESCE(h.name, '') FROM layout l "
                        "LEFT JOIN host h ON h.id = l.host_id WHERE l.name = ?1"));
    q->bind(1, name);
    LB_TRY(row, q->step());
    if (!row)
        return std::optional<LayoutRecord>{};
    LayoutRecord rec;
    rec.id = q->columnInt(0);
    rec.name = q->columnText(1);
    rec.kind = q->columnText(2);
    rec.spec = q->columnText(3);
    rec.host = q->columnText(4);
    return std::optional<LayoutRecord>{rec};
}

Expected<std::vector<LayoutRecord>> Store::layouts() {
    // Each layout's runs counted over its entries of an index, and its runs that did not end ok
    // (the other three statuses the table's CHECK allows) found by a seek each: a pass over
    // every run grouping by layout read each row's status, 100 M instructions at 100,000 runs
    // where these take a third of that, and the GUI asks on opening, comparing and for fleets.
    LB_TRY(q, statement("SELECT l.id, l.name, l.kind, l.spec, COALESCE(h.name, ''), "
                        "(SELECT COUNT(*) FROM run WHERE layout_id = l.id), "
                        "(SELECT COUNT(*) FROM run WHERE layout_id = l.id AND status IN "
                        "('failed', 'aborted', 'running')) FROM layout l "
                        "LEFT JOIN host h ON h.id = l.host_id WHERE l.kind != ?1 ORDER BY l.name"));
    q->bind(1, stagedImportKind);
    std::vector<LayoutRecord> out;
    LB_TRY_VOID(q->forEachRow([&](sql::Statement& row) {
        out.push_back({row.columnInt(0), row.columnText(1), row.columnText(2), row.columnText(3),
                       row.columnText(4), row.columnInt(5), row.columnInt(6)});
    }));
    return out;
}

Error Store::noLayoutNamed(std::string_view field, const std::string& typed) {
    std::string message = std::string(field) + ": no layout named '" + typed + "' in " + path();
    auto all = layouts();
    if (!all || all->empty())
        return Error::badInput(message);
    std::vector<std::string> names;
    for (const auto& l : *all)
        names.push_back(l.name);
    const std::string near = didYouMean(typed, names);
    if (!near.empty())
        return Error::badInput(message + near);
    constexpr std::size_t listed = 12; // a list a person reads; the rest counted
    std::vector<std::string> quoted;
    for (std::size_t i = 0; i < names.size() && i < listed; ++i)
        quoted.push_back("'" + names[i] + "'");
    if (names.size() > listed)
        quoted.push_back("and " + std::to_string(names.size() - listed) + " more");
    return Error::badInput(message + " (layouts: " + joinedText(quoted, ", ") + ")");
}

} // namespace lb

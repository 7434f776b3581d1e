// Editing a scenario's text key by key (engine/scenario/scenario_edit.h): only the key's line
// changes, keys and tables are added where TOML puts them, and what cannot be edited by line
// (inline tables) is refused.
#include "engine/scenario/scenario_edit.h"
#include "engine/scenario/scenario_keys.h"

#include <gtest/gtest.h>
#include <string>

using namespace lb;

namespace {

const std::string text = R"(# Two layouts
name = "edit"

[[layouts]]
name = "a"   # the first
kind = "zfs-mirror"
disks = [
    "d1",
    "d2",
]

[layouts.export]
iscsi = "tgt"

# The second
[[layouts]]
name = "b"
kind = "dir"
path = "."

[[workloads]]
probe = "fio"
)";

TEST(ScenarioEdit, ReadsEachTableOfAnArrayAsFormText) {
    const auto layouts = readScenarioArray(text, "layouts");
    ASSERT_TRUE(layouts);
    ASSERT_EQ(layouts->size(), 2u);
    EXPECT_EQ(layouts->at(0).values.at("name"), "a");
    EXPECT_EQ(layouts->at(0).values.at("disks"), "d1, d2");
    EXPECT_EQ(layouts->at(0).subtables.at("export").at("iscsi"), "tgt");
    EXPECT_EQ(layouts->at(1).values.at("kind"), "dir");
    EXPECT_TRUE(layouts->at(1).subtables.empty());
    EXPECT_TRUE(readScenarioArray(text, "disks")->empty());
    const auto broken = readScenarioArray("[[layouts]\n", "layouts");
    ASSERT_FALSE(broken);
    EXPECT_EQ(broken.error().message.rfind("line 1: ", 0), 0u) << broken.error().message;
}

TEST(ScenarioEdit, ReplacesAValueInPlaceKeepingTheRest) {
    const auto edited = setScenarioValue(text, {"layouts", 0, ""}, "name", "\"first\"");
    ASSERT_TRUE(edited) << edited.error().message;
    std::string expected = text;
    expected.replace(expected.find("\"a\""), 3, "\"first\"");
    EXPECT_EQ(*edited, expected); // the comment after the value stays
    // A value over several lines is replaced whole.
    const auto disks = setScenarioValue(text, {"layouts", 0, ""}, "disks", "[\"d3\"]");
    ASSERT_TRUE(disks);
    EXPECT_NE(disks->find("disks = [\"d3\"]\n\n[layouts.export]"), std::string::npos) << *disks;
    EXPECT_EQ(readScenarioArray(*disks, "layouts")->at(0).values.at("disks"), "d3");
}

TEST(ScenarioEdit, AddsAKeyAfterTheTablesLastKey) {
    const auto edited = setScenarioValue(text, {"layouts", 1, ""}, "baseline", "true");
    ASSERT_TRUE(edited);
    EXPECT_NE(edited->find("path = \".\"\nbaseline = true\n\n[[workloads]]"), std::string::npos)
        << *edited;
    const auto first = setScenarioValue(text, {"layouts", 0, ""}, "ashift", "13");
    ASSERT_TRUE(first);
    EXPECT_NE(first->find("    \"d2\",\n]\nashift = 13\n\n[layouts.export]"), std::string::npos)
        << *first;
    const auto sub = setScenarioValue(text, {"layouts", 0, "export"}, "nfs", "\"kernel\"");
    ASSERT_TRUE(sub);
    EXPECT_EQ(readScenarioArray(*sub, "layouts")->at(0).subtables.at("export").at("nfs"), "kernel");
}

TEST(ScenarioEdit, AddsAMissingSubtableToItsOwnArrayTable) {
    // The second layout gets [layouts.export] before [[workloads]]; the first keeps its own.
    const auto edited = setScenarioValue(text, {"layouts", 1, "export"}, "nfs", "\"ganesha\"");
    ASSERT_TRUE(edited) << edited.error().message;
    EXPECT_NE(edited->find("path = \".\"\n\n[layouts.export]\nnfs = \"ganesha\"\n\n[[workloads]]"),
              std::string::npos)
        << *edited;
    const auto layouts = readScenarioArray(*edited, "layouts");
    EXPECT_EQ(layouts->at(1).subtables.at("export").at("nfs"), "ganesha");
    EXPECT_EQ(layouts->at(0).subtables.at("export").count("nfs"), 0u);
    // The last table in the file: the subtable goes at the end.
    const auto guest =
        setScenarioValue("[[layouts]]\nname = \"g\"\n", {"layouts", 0, "guest"}, "cpus", "4");
    ASSERT_TRUE(guest);
    EXPECT_EQ(*guest, "[[layouts]]\nname = \"g\"\n\n[layouts.guest]\ncpus = 4\n");
    // A top-level table.
    const auto top = setScenarioValue("name = \"x\"", {"", 0, "thresholds"}, "viable", "1.2");
    ASSERT_TRUE(top);
    EXPECT_EQ(*top, "name = \"x\"\n\n[thresholds]\nviable = 1.2\n");
}

TEST(ScenarioEdit, RemovesAKeysLines) {
    const auto edited = setScenarioValue(text, {"layouts", 0, ""}, "disks", std::nullopt);
    ASSERT_TRUE(edited);
    EXPECT_NE(edited->find("kind = \"zfs-mirror\"\n\n[layouts.export]"), std::string::npos)
        << *edited;
    // Removing what is not there changes nothing.
    EXPECT_EQ(*setScenarioValue(text, {"layouts", 1, ""}, "ashift", std::nullopt), text);
    EXPECT_EQ(*setScenarioValue(text, {"layouts", 1, "guest"}, "cpus", std::nullopt), text);
}

TEST(ScenarioEdit, AppendsAndRemovesArrayTables) {
    const auto added = appendScenarioTable(text, "disks", {{"name", "\"d1\""}, {"size", "\"1G\""}});
    ASSERT_TRUE(added);
    EXPECT_EQ(*added, text + "\n[[disks]]\nname = \"d1\"\nsize = \"1G\"\n");
    // The first layout goes with its export; the second layout's comment stays.
    const auto removed = removeScenarioTable(text, "layouts", 0);
    ASSERT_TRUE(removed) << removed.error().message;
    const auto layouts = readScenarioArray(*removed, "layouts");
    ASSERT_EQ(layouts->size(), 1u);
    EXPECT_EQ(layouts->at(0).values.at("name"), "b");
    EXPECT_EQ(removed->find("iscsi"), std::string::npos);
    EXPECT_NE(removed->find("name = \"edit\"\n\n# The second\n[[layouts]]"), std::string::npos)
        << *removed;
    EXPECT_FALSE(removeScenarioTable(text, "layouts", 2));
}

TEST(ScenarioEdit, RefusesWhatIsNotWrittenLineByLine) {
    const std::string inlineExport = "[[layouts]]\nname = \"a\"\nexport = { iscsi = \"tgt\" }\n";
    const auto added =
        setScenarioValue(inlineExport, {"layouts", 0, "export"}, "nfs", "\"kernel\"");
    ASSERT_FALSE(added);
    EXPECT_NE(added.error().message.find("edit it in the text"), std::string::npos);
    // A value inside it can still be replaced where it is.
    const auto replaced =
        setScenarioValue(inlineExport, {"layouts", 0, "export"}, "iscsi", "\"lio\"");
    ASSERT_TRUE(replaced);
    EXPECT_EQ(*replaced, "[[layouts]]\nname = \"a\"\nexport = { iscsi = \"lio\" }\n");
    EXPECT_FALSE(setScenarioValue(text, {"layouts", 5, ""}, "name", "\"x\""));
    EXPECT_FALSE(setScenarioValue(text, {"layouts", 0, ""}, "export", "1"));
}

TEST(ScenarioEdit, WritesFormTextAsTheKeysType) {
    const auto value = [](OptionType type, const char* formText) {
        OptionSpec spec{.name = "k", .type = type};
        const auto v = tomlValue(spec, formText);
        return v ? *v : "error: " + v.error().message;
    };
    EXPECT_EQ(value(OptionType::Bool, "true"), "true");
    EXPECT_EQ(value(OptionType::Bool, "yes"), "error: k: 'yes' is not true or false");
    EXPECT_EQ(value(OptionType::Int, " 12 "), "12");
    EXPECT_EQ(value(OptionType::Int, "1.5"), "error: k: '1.5' is not a whole number");
    EXPECT_EQ(value(OptionType::Number, "1"), "1.0");
    EXPECT_EQ(value(OptionType::Number, "0.8"), "0.8");
    EXPECT_EQ(value(OptionType::Size, "4096"), "4096");
    EXPECT_EQ(value(OptionType::Size, "64MiB"), "\"64MiB\"");
    EXPECT_EQ(value(OptionType::String, "a \"b\"\\"), "\"a \\\"b\\\"\\\\\"");
    EXPECT_EQ(value(OptionType::List, "rw, sync,,no_root_squash"),
              "[\"rw\", \"sync\", \"no_root_squash\"]");
    EXPECT_EQ(value(OptionType::IntList, "3, 4"), "[3, 4]");
    EXPECT_EQ(value(OptionType::IntList, "3, x"),
              "error: k: '3, x' is not a list of whole numbers");
}

} // namespace

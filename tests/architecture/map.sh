#!/usr/bin/env bash
# The map is whole: every room of the code (a module: a header and its sources, named by its
# stem) has its sentence in docs/architecture.md, written as `stem`, and every folder of the
# engine has its section. A new room without one fails here, naming it.
#
#   map.sh SOURCE_DIR
set -euo pipefail
cd "$1"
doc=docs/architecture.md
missing=0
while IFS= read -r path; do
    stem=$(basename "${path%.*}")
    if ! grep -qF "\`$stem\`" "$doc"; then
        echo "map: $path: no sentence for \`$stem\` in $doc"
        missing=$((missing + 1))
    fi
done < <(find engine probes reports app/cli app/gui app/render -type f \( -name '*.h' -o -name '*.cpp' \) |
             sort)
for tool in tools/*/; do
    name=$(basename "$tool")
    grep -qF "\`$name\`" "$doc" || { echo "map: $tool: no sentence in $doc"; missing=$((missing + 1)); }
done
for folder in engine/*/; do
    name=${folder%/}
    grep -qE "^## $name\b" "$doc" || { echo "map: $name has no section in $doc"; missing=$((missing + 1)); }
done
echo "map: $missing room(s) or folder(s) without their sentence"
[ "$missing" -eq 0 ]

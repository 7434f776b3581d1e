// The program of an engine layer's link check (engine/CMakeLists.txt, layoutbench_layer): it
// links the whole archive of one layer with only the layers that layer names, so any call from
// it into a layer above is an undefined reference and the build fails. It is never run.
int main() {
    return 0;
}

// The translation unit that compiles the problem plugins' precompiled header
// (cmake/DaekitPrecompiledHeaders.cmake); it has no code of its own.

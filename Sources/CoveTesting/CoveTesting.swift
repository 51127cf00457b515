// The whole test kit in one import, as before the split: the fakes an app's unit tests need
// (`CoveTestSupport`: the scripted engine and transport, the event recorder, the engine contract, log
// capture; it depends on CoveCore only) and the servers and fixture media (`CoveTestServers`:
// Hummingbird media, catalog and fault servers, ffmpeg-made fixtures, Xvfb helpers). Depend on the part
// you need; this module is for code that uses both.
@_exported import CoveTestServers
@_exported import CoveTestSupport

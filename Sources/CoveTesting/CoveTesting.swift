// The whole test kit in one import: the fakes an app's unit tests need (`CoveTestSupport`: the scripted
// engine and transport, the event recorder, the engine contract, log capture; CoveCore only), the embedded
// servers and the media they serve (`CoveServer`: media, catalog and stand-in servers, ffmpeg-made
// fixtures) and what exists to break and watch them (`CoveTestServers`: fault injection, Xvfb, weston, a
// private D-Bus). Depend on the part you need; this module is for code that uses them together.
@_exported import CoveServer
@_exported import CoveTestServers
@_exported import CoveTestSupport

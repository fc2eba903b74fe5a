"""A desktop notification server for voicerack's tests: the published
org.freedesktop.Notifications interface (Desktop Notifications Specification 1.2) on the session
bus of $DBUS_SESSION_BUS_ADDRESS, recording each Notify call as one JSON line on standard output.

Run with /usr/bin/python3 (Debian's python3-dbus and python3-gi load only there). Prints
{"ready": true} once it owns the name; stops on SIGTERM.
"""
import json
import signal
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def say(record):
    print(json.dumps(record), flush=True)


class Notifications(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.next_id = 1

    @dbus.service.method(NAME, in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout):
        notification_id = self.next_id
        self.next_id += 1
        say({
            "t": time.time(), "app": str(app_name), "icon": str(app_icon), "summary": str(summary),
            "body": str(body), "hints": sorted(str(k) for k in hints.keys()), "id": notification_id,
        })
        return dbus.UInt32(notification_id)

    @dbus.service.method(NAME, in_signature="", out_signature="as")
    def GetCapabilities(self):
        return ["body"]

    @dbus.service.method(NAME, in_signature="u", out_signature="")
    def CloseNotification(self, notification_id):
        pass

    @dbus.service.method(NAME, in_signature="", out_signature="ssss")
    def GetServerInformation(self):
        return ("voicerack-test", "voicerack", "1", "1.2")


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    name = dbus.service.BusName(NAME, bus, do_not_queue=True)
    server = Notifications(bus)
    loop = GLib.MainLoop()
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    say({"ready": True})
    loop.run()
    del name, server
    return 0


if __name__ == "__main__":
    sys.exit(main())

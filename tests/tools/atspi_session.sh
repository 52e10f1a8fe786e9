#!/bin/bash
# The AT-SPI walk of the live demo, start to end: a private X display and D-Bus session, the
# accessibility bus, `postdesk --demo` with Qt's AT-SPI bridge on, then
# tests/tools/atspi_walk.py (system python3, PyGObject) with the given arguments (default:
# `tour`). Everything it starts is stopped by process id when it ends.
#
#   tests/tools/atspi_session.sh                      # tour: every page, view and a few dialogs
#   tests/tools/atspi_session.sh walk --named         # one walk of the first screen
#   A11Y_DISPLAY=:88 A11Y_DIR=/tmp/mine tests/tools/atspi_session.sh tour --json out.json
#   (A11Y_DISPLAY: watch it with `import -display :88 -window root shot.png`; default: a free one)
#
# Needs: apt-get install -y xvfb xdotool at-spi2-core dbus-x11 python3-gi gir1.2-atspi-2.0
# Exit status: the walker's (1 when a walk found an unnamed control or no post mirror).
set -u
HERE=$(cd "$(dirname "$0")/../.." && pwd)
DISPLAY_NUMBER=${A11Y_DISPLAY:-}  # default: the first free display (Xvfb -displayfd)
WORK=${A11Y_DIR:-/tmp/postdesk-atspi}
SIZE=${A11Y_SIZE:-1440x900}

if [ -z "${POSTDESK_ATSPI_INNER:-}" ]; then
    mkdir -p "$WORK"/{config,data,cache}
    if [ -n "$DISPLAY_NUMBER" ]; then
        Xvfb "$DISPLAY_NUMBER" -screen 0 "${SIZE}x24" >"$WORK/xvfb.log" 2>&1 &
        xvfb=$!
    else
        rm -f "$WORK/display"
        Xvfb -displayfd 3 -screen 0 "${SIZE}x24" 3>"$WORK/display" >"$WORK/xvfb.log" 2>&1 &
        xvfb=$!
        for _ in $(seq 50); do
            [ -s "$WORK/display" ] && break
            sleep 0.1
        done
        DISPLAY_NUMBER=:$(head -n1 "$WORK/display")
    fi
    for _ in $(seq 50); do
        DISPLAY=$DISPLAY_NUMBER xdotool getmouselocation >/dev/null 2>&1 && break
        sleep 0.1
    done
    POSTDESK_ATSPI_INNER=1 DISPLAY=$DISPLAY_NUMBER A11Y_DIR=$WORK \
        dbus-run-session -- "$0" "$@"
    status=$?
    kill "$xvfb" 2>/dev/null
    wait "$xvfb" 2>/dev/null
    exit $status
fi

# Inside the private D-Bus session.
/usr/libexec/at-spi-bus-launcher --launch-immediately >"$WORK/bus.log" 2>&1 &
launcher=$!
export QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 QT_ACCESSIBILITY=1
export XDG_CONFIG_HOME=$WORK/config XDG_DATA_HOME=$WORK/data XDG_CACHE_HOME=$WORK/cache
(cd "$HERE" && exec .venv/bin/postdesk --demo) >"$WORK/app.log" 2>&1 &
app=$!
# The walker waits for the app on the bus, then for its window to settle.
[ $# -eq 0 ] && set -- tour
/usr/bin/python3 "$HERE/tests/tools/atspi_walk.py" "$@"
status=$?
kill "$app" 2>/dev/null
wait "$app" 2>/dev/null
kill "$launcher" 2>/dev/null
wait "$launcher" 2>/dev/null
exit $status

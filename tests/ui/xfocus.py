"""Gives a window the keyboard focus, or minimizes it, as a window manager would.

The UI tests run on Xvfb without a window manager. GTK then asks X for the focus itself when a
window maps, and that request sometimes does not take; and when a window with the focus closes,
X hands the focus back to the root window, not to the window that was behind. A person on a
desktop never sees either: their window manager focuses the window they work in. This does the
same through Xlib (ctypes: the tests need no extra package for it).
"""

import ctypes
import ctypes.util

_xlib = ctypes.cdll.LoadLibrary(ctypes.util.find_library('X11') or 'libX11.so.6')

_Display = ctypes.c_void_p
_Window = ctypes.c_ulong
_Atom = ctypes.c_ulong

_xlib.XOpenDisplay.restype = _Display
_xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
_xlib.XCloseDisplay.argtypes = [_Display]
_xlib.XDefaultRootWindow.restype = _Window
_xlib.XDefaultRootWindow.argtypes = [_Display]
_xlib.XQueryTree.argtypes = [_Display, _Window, ctypes.POINTER(_Window), ctypes.POINTER(_Window),
                             ctypes.POINTER(ctypes.POINTER(_Window)), ctypes.POINTER(ctypes.c_uint)]
_xlib.XInternAtom.restype = _Atom
_xlib.XInternAtom.argtypes = [_Display, ctypes.c_char_p, ctypes.c_int]
_xlib.XGetWindowProperty.argtypes = [
    _Display, _Window, _Atom, ctypes.c_long, ctypes.c_long, ctypes.c_int, _Atom,
    ctypes.POINTER(_Atom), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_ulong),
    ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte))]
_xlib.XFree.argtypes = [ctypes.c_void_p]
_xlib.XSetInputFocus.argtypes = [_Display, _Window, ctypes.c_int, ctypes.c_ulong]
_xlib.XSync.argtypes = [_Display, ctypes.c_int]
_xlib.XMapWindow.argtypes = [_Display, _Window]
_xlib.XUnmapWindow.argtypes = [_Display, _Window]
_xlib.XTranslateCoordinates.argtypes = [_Display, _Window, _Window, ctypes.c_int, ctypes.c_int,
                                        ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                        ctypes.POINTER(_Window)]

_REVERT_TO_PARENT = 2
_CURRENT_TIME = 0
_ANY_PROPERTY_TYPE = 0

# A window can unmap between the look-up and the request: ignore X errors instead of letting
# Xlib's default handler end the test process.
_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, _Display, ctypes.c_void_p)(lambda display, event: 0)
_xlib.XSetErrorHandler(_ERROR_HANDLER)


def _property(display, window, name, length=64):
    """The raw items of a window property: integers for format 32, else bytes."""
    actual_type = _Atom()
    actual_format = ctypes.c_int()
    n_items = ctypes.c_ulong()
    bytes_after = ctypes.c_ulong()
    data = ctypes.POINTER(ctypes.c_ubyte)()
    atom = _xlib.XInternAtom(display, name, False)
    if _xlib.XGetWindowProperty(display, window, atom, 0, length, False, _ANY_PROPERTY_TYPE,
                                ctypes.byref(actual_type), ctypes.byref(actual_format),
                                ctypes.byref(n_items), ctypes.byref(bytes_after),
                                ctypes.byref(data)) != 0 or not data:
        return None
    try:
        if actual_format.value == 32:  # Xlib hands 32-bit items over as C longs
            return list(ctypes.cast(data, ctypes.POINTER(ctypes.c_long))[:n_items.value])
        return bytes(data[:n_items.value])
    finally:
        _xlib.XFree(data)


def _with_toplevel(pid, title, action):
    """Calls action(display, window) on the toplevel window of process @pid titled @title.
    Returns False if there is no such window."""
    display = _xlib.XOpenDisplay(None)
    if not display:
        raise RuntimeError('cannot open the X display')
    try:
        root = _xlib.XDefaultRootWindow(display)
        root_return, parent_return = _Window(), _Window()
        children = ctypes.POINTER(_Window)()
        n_children = ctypes.c_uint()
        if not _xlib.XQueryTree(display, root, ctypes.byref(root_return),
                                ctypes.byref(parent_return), ctypes.byref(children),
                                ctypes.byref(n_children)):
            return False
        windows = list(children[:n_children.value])
        if children:
            _xlib.XFree(children)
        for window in windows:
            if _property(display, window, b'_NET_WM_PID') != [pid]:
                continue
            if _property(display, window, b'_NET_WM_NAME') != title.encode():
                continue
            action(display, window)
            _xlib.XSync(display, False)
            return True
        return False
    finally:
        _xlib.XCloseDisplay(display)


def focus_toplevel(pid, title):
    """Gives the keyboard focus to the toplevel window of process @pid titled @title.
    Returns False if there is no such window."""
    return _with_toplevel(pid, title, lambda display, window: _xlib.XSetInputFocus(
        display, window, _REVERT_TO_PARENT, _CURRENT_TIME))


def minimize_toplevel(pid, title):
    """Iconifies the window as an X window manager does: it unmaps it (GDK, with no window
    manager saying otherwise, takes that for minimized). Returns False if there is no such
    window."""
    return _with_toplevel(pid, title, _xlib.XUnmapWindow)


def restore_toplevel(pid, title):
    """Maps a window minimized by minimize_toplevel() again."""
    return _with_toplevel(pid, title, _xlib.XMapWindow)


def toplevel_origin(pid, title):
    """Where the toplevel window of process @pid titled @title is on the screen, as (x, y); None
    if there is no such window. GTK 4.8 tells AT-SPI only where things are within their window,
    and X places a second window (Preferences, Details) where it likes when no window manager
    does."""
    origin = []

    def translate(display, window):
        x, y, child = ctypes.c_int(), ctypes.c_int(), _Window()
        _xlib.XTranslateCoordinates(display, window, _xlib.XDefaultRootWindow(display), 0, 0,
                                    ctypes.byref(x), ctypes.byref(y), ctypes.byref(child))
        origin.append((x.value, y.value))
    if not _with_toplevel(pid, title, translate):
        return None
    return origin[0]

#!/usr/bin/python3
"""The window as a screen reader meets it: every control Orca can land on has a name, said once
and without its mnemonic's underscore, the content area says what it shows, and Tab from the start visits every control of the main window,
Preferences and Details in a sensible order and comes back where it started."""

import pyatspi

from nearbyui import NearbyTestCase, main, wait_for, walk

# What Orca reads as something to press, switch or choose.
CONTROLS = {
    pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_CHECK_BOX,
    pyatspi.ROLE_SPIN_BUTTON, pyatspi.ROLE_MENU_ITEM, pyatspi.ROLE_COMBO_BOX,
    pyatspi.ROLE_RADIO_BUTTON, pyatspi.ROLE_ENTRY, pyatspi.ROLE_SLIDER,
}


class AccessibilityTest(NearbyTestCase):
    app_args = ['--demo']
    settings = {'privacy-choice-made': 'true', 'lookup-policy': "'automatic'"}

    def unnamed_controls(self, root):
        unnamed = []
        for node in walk(root):
            try:
                role = node.getRole()
                if role not in CONTROLS or not node.getState().contains(pyatspi.STATE_SHOWING):
                    continue
                if not (node.name or '').strip():
                    # A GtkMenuButton's inner button is named by the menu button around it.
                    parent = node.parent
                    if parent is not None and (parent.name or '').strip() and \
                            parent.getRole() in CONTROLS:
                        continue
                    unnamed.append(f'{node.getRoleName()} under “{parent.name if parent else ""}”')
            except Exception:
                continue
        return unnamed

    def twice_named(self, root):
        """Controls whose name a screen reader would read with the mnemonic's underscore, or
        twice over ("_Try Again Try Again": the label and the label's text)."""
        found = []
        for node in walk(root):
            try:
                role = node.getRole()
                if role not in CONTROLS and role not in (pyatspi.ROLE_LIST_ITEM,
                                                         pyatspi.ROLE_LABEL):
                    continue
                name = node.name or ''
            except Exception:
                continue
            words = name.split(' ')
            half = len(words) // 2
            doubled = len(words) % 2 == 0 and half > 0 and words[:half] == words[half:]
            if '_' in name.replace('__', '') and not name.startswith('http') or doubled:
                found.append(f'{node.getRoleName()} “{name}”')
        return found

    def focused_in(self, root):
        for node in walk(root):
            try:
                if node.getState().contains(pyatspi.STATE_FOCUSED):
                    return node
            except Exception:
                continue
        return None

    def tab_cycle(self, root, limit=40):
        """Presses Tab until the focus comes back to where it was: the names of what it met."""
        start = self.focused_in(root)
        self.assertIsNotNone(start, 'nothing has the keyboard focus')
        names = [self.row_button_in(start) or start.name]
        for _ in range(limit):
            before = self.focused_in(root)
            self.press_tab()
            focused = wait_for(lambda: (lambda f: f if f is not None and f != before else None)(
                self.focused_in(root)), timeout=5, what=f'Tab to move on from “{before.name}”')
            name = self.row_button_in(focused) or focused.name
            self.assertTrue((name or '').strip(),
                            f'Tab reached a {focused.getRoleName()} without a name after {names}')
            # Back in the list, whose keyboard focus may come back to the heading of a part.
            if focused == start or name == names[0] or (self.in_list(start) and self.in_list(focused)):
                return names
            names.append(name)
        raise AssertionError(f'Tab never comes back to the start: {names}')

    def test_walk_the_window_preferences_and_details(self):
        self.start_app()
        self.wait_for_every_demo_row()
        self.give_focus()

        # The content area says what it shows; the window is named.
        self.assertEqual(self.current_page(), 'Nearby objects')
        self.assertEqual(self.window.name, 'Nearby')
        self.assertEqual(self.unnamed_controls(self.window), [])
        # Every page's buttons too (the pages not shown are in the tree): "Try Again", not
        # "_Try Again Try Again".
        self.assertEqual(self.twice_named(self.window), [])
        indicator = self.find(self.window, name='Listening for nearby objects',
                              role=pyatspi.ROLE_IMAGE)
        self.assertIsNotNone(indicator, 'the listening indicator is named')

        # From the start: the list (one stop), the refresh button, the menu, and back.
        wait_for(lambda: self.row_button_in(self.focused()) is not None,
                 what='the focus on the list at start')
        order = self.tab_cycle(self.window)
        self.assertTrue(order[0].startswith('More about '), f'Tab order {order}')
        self.assertEqual([name for name in order if not name.startswith('More about ')],
                         ['Look Up Pages Again', 'Search', 'Main Menu'], f'Tab order {order}')
        self.assertEqual(len([name for name in order if name.startswith('More about ')]), 1,
                         f'the list is one Tab stop: {order}')

        # The primary menu: every item named.
        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.wait_find(self.app, name='Preferences', role=pyatspi.ROLE_MENU_ITEM)
        items = [node.name for node in self.find_all(self.app, role=pyatspi.ROLE_MENU_ITEM)]
        self.assertIn('Keyboard Shortcuts', items)
        self.assertIn('About Nearby', items)
        self.assertTrue(all((name or '').strip() for name in items), f'menu items {items}')
        self.press_keys('Escape')

        # Preferences: named controls, and Tab reaches every row's control.
        self.click(self.wait_find(self.window, name='Main Menu', role=pyatspi.ROLE_PUSH_BUTTON))
        self.click(self.wait_find(name='Preferences', role=pyatspi.ROLE_MENU_ITEM))
        preferences = self.wait_find(name='Preferences', role=pyatspi.ROLE_FRAME)
        self.give_focus(preferences)
        self.assertEqual(self.unnamed_controls(preferences), [])
        self.assertEqual(self.twice_named(preferences), [])
        wait_for(lambda: self.focused_in(preferences) is not None,
                 what='the keyboard focus in Preferences')
        order = self.tab_cycle(preferences)
        for wanted in ('Look Up Pages', 'Fade after, in seconds', 'Remove after, in seconds',
                       'Surroundings', 'Developer Mode'):
            self.assertTrue(any(wanted in (name or '').replace('_', '') for name in order),
                            f'Tab never reaches “{wanted}” in Preferences: {order}')
        self.press_keys('Escape')
        wait_for(lambda: self.find(self.app, name='Preferences', role=pyatspi.ROLE_FRAME) is None,
                 what='Escape to close Preferences')

        # Details: named controls, the summary's buttons reachable with Tab.
        self.open_row_menu('Bluebird Café')
        self.click(self.wait_find(self.app, name='Details', role=pyatspi.ROLE_MENU_ITEM))
        details = self.wait_find(self.app, name='Details', role=pyatspi.ROLE_FRAME)
        wait_for(lambda: self.find(details, name='Open', role=pyatspi.ROLE_PUSH_BUTTON),
                 what='the summary of Details')
        self.give_focus(details)
        self.assertEqual(self.unnamed_controls(details), [])
        self.assertEqual(self.twice_named(details), [])
        wait_for(lambda: self.focused_in(details) is not None, what='the keyboard focus in Details')
        order = self.tab_cycle(details)
        for wanted in ('Open', 'Add to Favourites', 'Developer Details', 'Copy as JSON'):
            self.assertIn(wanted, [(name or '').replace('_', '').split(' ' + wanted)[0]
                                   for name in order],
                          f'Tab never reaches “{wanted}” in Details: {order}')


if __name__ == '__main__':
    main()

#!/usr/bin/python3
# Checks what GNOME Shell and GNOME Software show of Nearby beyond what the validators check: the
# desktop file starts the app over D-Bus and is found by the words people search for, the metainfo
# describes the current release, and the icons are valid SVG (the symbolic one in a single colour,
# so the theme can recolour it).

import argparse
import os
import re
import sys
import xml.etree.ElementTree as ElementTree

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import taptest  # noqa: E402

# Main categories of the Desktop Menu Specification: an app sits in the menu section of each.
MAIN_CATEGORIES = {'AudioVideo', 'Audio', 'Video', 'Development', 'Education', 'Game', 'Graphics',
                   'Network', 'Office', 'Science', 'Settings', 'System', 'Utility'}
# The relation items AppStream 0.16 understands in <requires>, <recommends> and <supports>.
RELATION_ITEMS = {'id', 'modalias', 'kernel', 'memory', 'firmware', 'control', 'display_length',
                  'hardware', 'internet'}
SVG = '{http://www.w3.org/2000/svg}'
XLINK_HREF = '{http://www.w3.org/1999/xlink}href'

parser = argparse.ArgumentParser()
parser.add_argument('--source-root', required=True)
parser.add_argument('--app-id', required=True)
parser.add_argument('--version', required=True, help="meson's project version")
parser.add_argument('--desktop-file', required=True, help='the merged .desktop file in the build tree')
parser.add_argument('--metainfo-file', required=True, help='the merged metainfo in the build tree')
parser.add_argument('--symbolic-icon', required=True,
                    help='the symbolic icon, installed as APP_ID-symbolic.svg whatever the profile')
options = parser.parse_args()

icons_dir = os.path.join(options.source_root, 'data', 'icons', 'hicolor')
scalable_icon = os.path.join(icons_dir, 'scalable', 'apps', options.app_id + '.svg')
symbolic_icon = options.symbolic_icon


def desktop_entry():
    entry = {}
    group = None
    with open(options.desktop_file, encoding='utf-8') as desktop_file:
        for line in desktop_file:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            if line.startswith('['):
                group = line
                continue
            if group == '[Desktop Entry]' and '=' in line:
                key, value = line.split('=', 1)
                entry[key.strip()] = value.strip()
    return entry


def string_list(value):
    assert value.endswith(';'), f'"{value}" must end with ";"'
    return [item for item in value.split(';') if item]


def metainfo():
    return ElementTree.parse(options.metainfo_file).getroot()


def colours_of(svg_path):
    """Every colour an SVG paints with, from attributes and style properties."""
    colours = set()
    paint_properties = ('fill', 'stroke', 'stop-color', 'color', 'flood-color', 'lighting-color')
    for element in ElementTree.parse(svg_path).iter():
        properties = {name: element.get(name) for name in paint_properties if element.get(name)}
        for declaration in (element.get('style') or '').split(';'):
            if ':' in declaration:
                name, value = declaration.split(':', 1)
                if name.strip() in paint_properties:
                    properties[name.strip()] = value.strip()
        for value in properties.values():
            value = value.lower()
            if value in ('none', 'currentcolor', 'inherit', 'transparent') or value.startswith('url('):
                continue
            colours.add(normalised_colour(value))
    return colours


def normalised_colour(value):
    match = re.fullmatch(r'#([0-9a-f])([0-9a-f])([0-9a-f])', value)
    if match:
        return '#' + ''.join(digit * 2 for digit in match.groups())
    return value


def check_svg(svg_path, size):
    try:
        root = ElementTree.parse(svg_path).getroot()
    except (OSError, ElementTree.ParseError) as error:
        raise AssertionError(f'{svg_path} is not valid SVG: {error}')
    name = os.path.basename(svg_path)
    assert root.tag == SVG + 'svg', f'{name}: the root element is {root.tag}, not an SVG <svg>'
    view_box = (root.get('viewBox') or '').replace(',', ' ').split()
    assert [float(number) for number in view_box] == [0, 0, size, size], \
        f'{name}: viewBox is "{root.get("viewBox")}", GNOME draws this icon on a {size}×{size} grid'
    for element in root.iter():
        tag = element.tag.replace(SVG, '')
        assert tag not in ('script', 'image', 'foreignObject'), f'{name} contains <{tag}>'
        assert tag != 'text', f'{name} contains <text>: convert it to a path, the font may be missing'
        link = element.get(XLINK_HREF) or element.get('href') or ''
        assert not link or link.startswith('#'), f'{name} refers to {link}, outside the file'
    return root


def desktop_file_starts_the_app_over_d_bus():
    entry = desktop_entry()
    assert entry.get('DBusActivatable') == 'true', \
        'DBusActivatable is not true: GNOME would start a second process instead of raising the window'
    assert entry.get('Type') == 'Application', f'Type is {entry.get("Type")!r}'
    assert entry.get('Exec', '').split()[:1] == ['nearby'], f'Exec is {entry.get("Exec")!r}'
    assert entry.get('Terminal') == 'false', 'the app would open a terminal'
    assert entry.get('StartupNotify') == 'true', 'no startup notification: the shell shows no spinner'


def desktop_file_is_found_by_what_people_search_for():
    entry = desktop_entry()
    assert entry.get('Name') == 'Nearby', f'Name is {entry.get("Name")!r}'
    assert entry.get('Comment'), 'no Comment: the shell shows nothing under the name'
    keywords = [keyword.lower() for keyword in string_list(entry.get('Keywords', ''))]
    for word in ('bluetooth', 'beacon', 'eddystone', 'physical web'):
        assert word in keywords, f'searching "{word}" would not find Nearby (Keywords: {keywords})'


def desktop_file_sits_in_one_menu_section():
    categories = string_list(desktop_entry().get('Categories', ''))
    main = [category for category in categories if category in MAIN_CATEGORIES]
    assert main == ['Network'], f'main categories {main}: Nearby belongs in Network, once'
    assert 'GNOME' in categories and 'GTK' in categories, f'categories {categories} lack GNOME;GTK'
    metainfo_categories = [category.text for category in metainfo().iterfind('categories/category')]
    assert set(metainfo_categories) <= set(categories), \
        f'the metainfo lists categories {metainfo_categories}, the desktop file {categories}'


def desktop_file_names_an_icon_that_exists():
    icon = desktop_entry().get('Icon')
    assert icon == options.app_id, f'Icon is {icon!r}, not the app id'
    assert os.path.exists(os.path.join(icons_dir, 'scalable', 'apps', icon + '.svg')), f'no {icon}.svg'
    assert os.path.exists(symbolic_icon), f'no {symbolic_icon}'


def metainfo_belongs_to_the_desktop_file():
    component = metainfo()
    assert component.get('type') == 'desktop-application'
    assert component.findtext('id') == options.app_id, f'id is {component.findtext("id")!r}'
    launchables = [launchable.text for launchable in component.iterfind('launchable[@type="desktop-id"]')]
    assert launchables == [options.app_id + '.desktop'], f'launchables: {launchables}'
    assert component.findtext('translation[@type="gettext"]') == 'nearby', \
        'the translation domain is not "nearby": software centres would report no translations'
    assert [binary.text for binary in component.iterfind('provides/binary')] == ['nearby'], \
        'the metainfo does not say it provides the nearby command'


def metainfo_describes_the_app():
    component = metainfo()
    summary = component.findtext('summary') or ''
    assert 10 <= len(summary) <= 35, f'summary "{summary}" should be 10-35 characters'
    paragraphs = [''.join(paragraph.itertext()).strip() for paragraph in component.iterfind('description/p')]
    assert len(paragraphs) >= 2, 'the description needs more than one paragraph'
    assert all(len(paragraph) >= 80 for paragraph in paragraphs), 'a description paragraph is a stub'
    text = ' '.join(paragraphs)
    assert 'Bluetooth' in text, 'the description must say Nearby needs Bluetooth: AppStream cannot'
    assert component.find('url[@type="homepage"]') is not None, 'no homepage'
    assert component.find('developer_name') is not None or component.find('developer/name') is not None


def metainfo_lists_the_current_release_first():
    releases = list(metainfo().iterfind('releases/release'))
    assert releases, 'no <release>: GNOME Software shows no version'
    versions = [release.get('version') for release in releases]
    assert versions[0] == options.version, \
        f'the newest release is {versions[0]}, meson builds {options.version}: add a <release>'
    dates = [release.get('date') or '' for release in releases]
    assert all(re.fullmatch(r'[0-9]{4}-[0-9]{2}-[0-9]{2}', date) for date in dates), f'dates: {dates}'
    assert dates == sorted(dates, reverse=True), f'releases are not newest first: {dates}'
    for release in releases:
        assert release.find('description/p') is not None, f'release {release.get("version")} says nothing'


def metainfo_has_what_flathub_asks_for():
    component = metainfo()
    urls = {url.get('type'): url.text for url in component.iterfind('url')}
    for kind in ('homepage', 'bugtracker', 'vcs-browser', 'translate'):
        assert (urls.get(kind) or '').startswith('https://'), f'no https <url type="{kind}">: {urls}'
    developer = component.find('developer')
    assert developer is not None and re.fullmatch(r'[a-z0-9]+(\.[a-z0-9-]+)+', developer.get('id') or ''), \
        'no <developer id="..."> in reverse-DNS form'
    assert (developer.findtext('name') or '').strip(), '<developer> has no <name>'
    # Debian 12's AppStream 0.16 and GNOME Software 43 read the name from here.
    assert component.findtext('developer_name') == developer.findtext('name')
    contact = component.findtext('update_contact') or ''
    assert re.fullmatch(r'[^@\s]+@[a-z0-9-]+(\.[a-z0-9-]+)+', contact), f'update_contact {contact!r} is not an address'


def metainfo_pins_the_current_release():
    component = metainfo()
    release = component.find('releases/release')
    assert release.get('type') == 'stable', \
        f'release {release.get("version")} has type {release.get("type")!r}: Flathub and GNOME Software need "stable"'
    tag = 'v' + options.version
    images = [image.text for image in component.iterfind('screenshots/screenshot/image')]
    assert images, 'no screenshots'
    for image in images:
        # A branch changes under the released metainfo; the tag shows what this release looks like.
        assert image.startswith(f'https://raw.githubusercontent.com/nearbyweb/nearby/{tag}/data/screenshots/'), \
            f'{image} is not pinned to the tag {tag}'
        name = image.rsplit('/', 1)[-1]
        assert os.path.exists(os.path.join(options.source_root, 'data', 'screenshots', name)), \
            f'{image} names a screenshot that is not in data/screenshots'


def metainfo_has_a_content_rating():
    rating = metainfo().find('content_rating')
    assert rating is not None, 'no content rating: GNOME Software hides unrated apps from children'
    assert rating.get('type') in ('oars-1.0', 'oars-1.1'), f'content rating type {rating.get("type")}'


def metainfo_relations_are_ones_appstream_knows():
    component = metainfo()
    for relation in ('requires', 'recommends', 'supports'):
        for item in component.iterfind(f'{relation}/*'):
            assert item.tag in RELATION_ITEMS, f'<{relation}><{item.tag}> is not an AppStream relation'
            # Only Computer Hardware IDs are valid there: "bluetooth" would fail validation.
            if item.tag == 'hardware':
                assert re.fullmatch(r'[0-9a-f-]{36}', item.text or ''), f'<hardware>{item.text}</hardware>'
    assert component.find('requires/internet') is None, \
        'the internet is required, yet the demo works offline: recommend it instead'
    assert component.findtext('recommends/internet') == 'always', 'looking up pages needs the internet'
    controls = {control.text for control in component.iterfind('supports/control')}
    assert {'pointing', 'keyboard'} <= controls, f'supported controls: {controls}'


def icons_are_valid_svg():
    check_svg(scalable_icon, 128)
    check_svg(symbolic_icon, 16)


def symbolic_icon_uses_one_colour():
    colours = colours_of(symbolic_icon)
    assert len(colours) == 1, \
        f'the symbolic icon paints with {sorted(colours)}: use one colour, the theme recolours it'
    root = ElementTree.parse(symbolic_icon).getroot()
    for element in root.iter():
        tag = element.tag.replace(SVG, '')
        assert tag not in ('linearGradient', 'radialGradient', 'pattern'), f'the symbolic icon has a <{tag}>'


def the_colour_check_notices_a_second_colour():
    path = os.path.join(os.environ.get('G_TEST_BUILDDIR', '/tmp'), 'two-colours-symbolic.svg')
    with open(path, 'w', encoding='utf-8') as svg:
        svg.write('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
                  '<path fill="#222" d="M0 0h8v8z"/><path style="fill:#ff0000" d="M8 8h8v8z"/>'
                  '<path fill="#222222" stroke="none" d="M0 8h8v8z"/></svg>')
    try:
        assert colours_of(path) == {'#222222', '#ff0000'}, colours_of(path)
    finally:
        os.unlink(path)


def scalable_icon_has_a_base_and_a_gradient():
    root = check_svg(scalable_icon, 128)
    tags = {element.tag.replace(SVG, '') for element in root.iter()}
    assert 'linearGradient' in tags or 'radialGradient' in tags, 'the app icon has no gradient'
    # More than a flat symbol: the GNOME app icon style gives the base a darker side below it.
    assert len(colours_of(scalable_icon)) >= 3, 'the app icon is nearly monochrome'


taptest.run([
    desktop_file_starts_the_app_over_d_bus,
    desktop_file_is_found_by_what_people_search_for,
    desktop_file_sits_in_one_menu_section,
    desktop_file_names_an_icon_that_exists,
    metainfo_belongs_to_the_desktop_file,
    metainfo_describes_the_app,
    metainfo_lists_the_current_release_first,
    metainfo_has_what_flathub_asks_for,
    metainfo_pins_the_current_release,
    metainfo_has_a_content_rating,
    metainfo_relations_are_ones_appstream_knows,
    icons_are_valid_svg,
    symbolic_icon_uses_one_colour,
    the_colour_check_notices_a_second_colour,
    scalable_icon_has_a_base_and_a_gradient,
])

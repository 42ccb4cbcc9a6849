# The validators GNOME Software, Flathub and the desktop run on Nearby's desktop file, metainfo and
# settings schema, as Debian 12 has them, with every warning a failure unless README.md explains it
# ("Desktop file and metainfo" section). Used for each profile's files.

import shutil
import subprocess

import yaml

# appstreamcli 0.16.1's reports that README.md explains: (tag, hint) -> why it stays.
EXPLAINED_APPSTREAM_ISSUES = {
    ('cid-contains-uppercase-letter', None):
        'the id is the reverse-DNS app id, and Flathub requires it to match the GitHub owner and app name',
    ('unknown-tag', 'developer'):
        'AppStream 1.0 and Flathub require <developer>; Debian 12\'s AppStream 0.16 predates it and '
        'reads <developer_name>, which the file keeps too',
}


def _tool(name):
    path = shutil.which(name)
    if path is None:
        raise FileNotFoundError(f'{name} is not installed (build-aux/deps.sh installs it)')
    return path


def desktop_file_problems(path):
    """What desktop-file-validate says about @path: any line is a problem, warnings too."""
    result = subprocess.run([_tool('desktop-file-validate'), path], capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    if result.returncode != 0 and not problems:
        problems.append(f'desktop-file-validate exited with status {result.returncode}')
    return problems


def appstream_issues(path):
    """Every issue of `appstreamcli validate --pedantic --no-net` on @path, as dictionaries."""
    result = subprocess.run([_tool('appstreamcli'), 'validate', '--pedantic', '--no-net',
                             '--format=yaml', path], capture_output=True, text=True)
    documents = [document for document in yaml.safe_load_all(result.stdout) if document]
    if not documents:
        raise AssertionError(f'appstreamcli gave no report (status {result.returncode}):\n'
                             f'{result.stdout}{result.stderr}')
    issues = [issue for document in documents for issue in document.get('Issues') or []]
    passed = all(document.get('Passed') in (True, 'yes') for document in documents)
    return issues, passed


def unexplained(issues):
    """The issues README.md does not explain, one sentence each."""
    problems = []
    for issue in issues:
        tag, hint = issue.get('tag'), issue.get('hint')
        if (tag, hint) in EXPLAINED_APPSTREAM_ISSUES or (tag, None) in EXPLAINED_APPSTREAM_ISSUES:
            continue
        where = f'line {issue.get("line")}' if issue.get('line') else 'the file'
        problems.append(f'{issue.get("severity")}: {tag} ({hint}) at {where}: '
                        f'{" ".join(str(issue.get("explanation", "")).split())}')
    return problems


def metainfo_problems(path):
    issues, passed = appstream_issues(path)
    problems = unexplained(issues)
    if not passed:
        problems.append('appstreamcli says the validation failed')
    return problems


def schema_problems(directory):
    """What `glib-compile-schemas --strict` says about the schemas in @directory."""
    result = subprocess.run([_tool('glib-compile-schemas'), '--strict', '--dry-run', directory],
                            capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    if result.returncode != 0 and not problems:
        problems.append(f'glib-compile-schemas exited with status {result.returncode}')
    return problems

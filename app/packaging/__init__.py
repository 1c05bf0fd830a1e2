"""Building ClawQt's PyInstaller bundle (`python -m app.packaging`): what goes in (rules.py), the icons
for the desktops (icons.py) and the build command with its report (__main__.py). Never part of the
bundle itself."""

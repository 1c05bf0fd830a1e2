"""The ground floor of the main side: where ClawQt's files live, reading the user's JSON safely, fanning
values out to listeners, background work, the process tree, the app log and the user's local problems."""

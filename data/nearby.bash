# nearby.bash: bash completion for nearby(1): its commands, their options, and the values that
# can be listed (files, protocols, service-data UUIDs, adapters)
#
# SPDX-License-Identifier: GPL-3.0-or-later

# Kept equal to what `nearby --help` and `nearby COMMAND --help` show: check-completion tests it.
_nearby_commands='decode encode resolve scan advertise configure help'
_nearby_app_options='--help --help-all --help-gapplication --demo --replay --speed --developer
  --version'
_nearby_decode_options='--help --service-data --pretty'
_nearby_encode_options='--help --tx-power --invisible --json'
_nearby_resolve_options='--help --json --no-cache --automatic --timeout'
_nearby_scan_options='--help --json --duration --all --adapter --expiry --from --speed
  --min-rssi --protocol --address --url-contains'
_nearby_advertise_options='--help --uribeacon --tx-power --duration --adapter'
_nearby_configure_options='--help --url --uid --eid --tlm --clear --tx-power --advertised-power
  --remain-connectable --flags --tx-levels --tx-mode --interval --slot --unlock --lock --reset
  --json --adapter'

# COMPREPLY: what compgen gives for these arguments, one word a line.
_nearby_reply ()
{
  mapfile -t COMPREPLY < <(compgen "$@")
}

_nearby ()
{
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=
  local command=
  local options

  COMPREPLY=()
  (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD - 1]}

  # bash splits "--from=FILE" at the '=' (it is in COMP_WORDBREAKS).
  if [[ $cur == = ]]; then
    cur=
  elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
    prev=${COMP_WORDS[COMP_CWORD - 2]}
  fi

  if (( COMP_CWORD == 1 )); then
    if [[ $cur == -* ]]; then
      _nearby_reply -W "$_nearby_app_options" -- "$cur"
    else
      _nearby_reply -W "$_nearby_commands" -- "$cur"
    fi
    return 0
  fi

  [[ ${COMP_WORDS[1]} != -* ]] && command=${COMP_WORDS[1]}

  case $prev in
    --from|-f|--replay)
      # Directories get their '/' and names with spaces stay whole.
      compopt -o filenames 2>/dev/null
      _nearby_reply -f -- "$cur"
      return 0
      ;;
    --protocol)
      local protocols='eddystone uribeacon ibeacon'
      if [[ $cur == *,* ]]; then
        # A list: complete its last name.
        _nearby_reply -P "${cur%,*}," -W "$protocols" -- "${cur##*,}"
      else
        _nearby_reply -W "$protocols" -- "$cur"
      fi
      return 0
      ;;
    --service-data|-s)
      _nearby_reply -W 'feaa fed8' -- "$cur"
      return 0
      ;;
    --remain-connectable)
      _nearby_reply -W 'yes no' -- "$cur"
      return 0
      ;;
    --tx-mode)
      _nearby_reply -W '0 1 2 3' -- "$cur"
      return 0
      ;;
    --adapter|-i)
      _nearby_reply -W "$(command ls /sys/class/bluetooth 2>/dev/null)" -- "$cur"
      return 0
      ;;
    --duration|-d|--expiry|--tx-power|-t|--timeout|--min-rssi|--address|--url-contains|--speed\
    |--advertised-power|--flags|--tx-levels|--url|--uid|--eid|--interval|--slot|--unlock|--lock)
      # A value to type: offering options here would only mislead.
      return 0
      ;;
  esac

  case $command in
    help)
      (( COMP_CWORD == 2 )) && _nearby_reply -W "${_nearby_commands% help}" -- "$cur"
      return 0
      ;;
    '')
      options=$_nearby_app_options
      ;;
    decode|encode|resolve|scan|advertise|configure)
      local name=_nearby_${command}_options
      options=${!name}
      ;;
    *)
      return 0
      ;;
  esac

  if [[ $cur == -* ]]; then
    _nearby_reply -W "$options" -- "$cur"
  fi

  return 0
}

complete -F _nearby nearby

shared x;
process P {
  local r;
  r = 12ab; /* ERROR "invalid integer literal \"12ab\"" */
  r = 99999999999999999999; /* ERROR "integer literal 99999999999999999999 too large" */
  r = # 1; /* ERROR "illegal character U\+0023 '#'" */
  else r = 1; /* ERROR "else without if" */
  local s; /* ERROR "local declarations must come first in the process body" */
  { local t; } /* ERROR "local declarations must come first" */
}
local z; /* ERROR "local declaration outside a process" */
process /* ERROR "expected identifier, found '{'" */ { skip; }

/**
 * Combobox props for the selects of the playground (Mantine Select, Autocomplete, TagsInput,
 * MultiSelect): the options list is made when the dropdown opens. Mantine keeps it mounted,
 * hidden, by default, and positions it (floating-ui) as it mounts, reading the page's layout and
 * styles once per select; the playground has a dozen of them, so opening a thread paid for a
 * dozen hidden lists (one of up to 200 model ids) in the task that drew its settings.
 */
export const DROPDOWN_WHEN_OPEN = { keepMounted: false } as const;

/** Instance-wide settings; today only the hash of the generated Hosting API key. */
export interface SettingTable {
  key: string;
  value: string;
}

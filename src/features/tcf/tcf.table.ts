/** A fetched GVL file: `vendor-list` or `purposes-<lang>`, as the IAB published it. */
export interface TcfGvlFileTable {
  name: string;
  /** vendorListVersion of the file. */
  version: number;
  body: string;
  fetched_at: string;
}

export interface TcfGvlVendorTable {
  id: number;
  first_seen_version: number;
}

export interface TcfDomainBaselineTable {
  domain_id: string;
  gvl_version: number;
}

export interface TcfTables {
  tcf_gvl_files: TcfGvlFileTable;
  tcf_gvl_vendors: TcfGvlVendorTable;
  tcf_domain_baselines: TcfDomainBaselineTable;
}

//! The parquet format's Thrift structs that the parquet crate reads from a file's footer and page
//! headers (parquet-format's `parquet.thrift`, as the crate's reader knows them): each field's id
//! and the kind of value the format gives it. [`super::thrift_check`] refuses a known field whose
//! bytes declare another kind, since the crate would read those bytes as the format's kind and
//! no longer see the fields after it where a walk by the declared types does.
//!
//! Unions are structs whose fields are their variants. A struct without fields (the empty
//! variants, `IndexPageHeader`) has nothing to check. Fields the format does not have, or has
//! added since, are walked by their declared types, as the crate skips them.

/// The kind of value the format gives a field or a list's elements, as the compact protocol
/// encodes it.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// `i16`, `i32`, `i64` and enums: a zigzag varint (the crate reads any of the three alike).
    Varint,
    /// `i8`: one byte.
    Byte,
    /// `bool`: in the field's header, or a byte in a list.
    Bool,
    /// `double`: eight bytes.
    Double,
    /// `binary` and `string`: a length and the bytes.
    Binary,
    /// A struct (or union) of the format.
    Struct(&'static Schema),
    /// A list of elements of one kind.
    List(&'static Kind),
    /// An `i32` count of elements that follow in the list its struct is in (a schema element's
    /// `num_children`): the crate reserves room for that many before reading them, so it may
    /// not exceed the list's length.
    Children,
}

/// One of the format's structs: its name (for messages) and its fields.
#[derive(Debug)]
pub struct Schema {
    pub name: &'static str,
    pub fields: &'static [Field],
}

/// A field of a struct: its id, name and kind.
#[derive(Debug)]
pub struct Field {
    pub id: i64,
    pub name: &'static str,
    pub kind: Kind,
}

impl Schema {
    /// The field `id`, if the format has it.
    pub fn field(&self, id: i64) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.id == id)
    }
}

const fn f(id: i64, name: &'static str, kind: Kind) -> Field {
    Field { id, name, kind }
}

use Kind::{Binary, Bool, Byte, Children, Double, List, Struct, Varint};

/// A struct of the format without fields (an empty variant of a union).
const EMPTY: Schema = Schema {
    name: "empty struct",
    fields: &[],
};

/// The footer: `FileMetaData`.
pub const FILE_META_DATA: Schema = Schema {
    name: "FileMetaData",
    fields: &[
        f(1, "version", Varint),
        f(2, "schema", List(&Struct(&SCHEMA_ELEMENT))),
        f(3, "num_rows", Varint),
        f(4, "row_groups", List(&Struct(&ROW_GROUP))),
        f(5, "key_value_metadata", List(&Struct(&KEY_VALUE))),
        f(6, "created_by", Binary),
        f(7, "column_orders", List(&Struct(&COLUMN_ORDER))),
        f(8, "encryption_algorithm", Struct(&ENCRYPTION_ALGORITHM)),
        f(9, "footer_signing_key_metadata", Binary),
    ],
};

const SCHEMA_ELEMENT: Schema = Schema {
    name: "SchemaElement",
    fields: &[
        f(1, "type", Varint),
        f(2, "type_length", Varint),
        f(3, "repetition_type", Varint),
        f(4, "name", Binary),
        f(5, "num_children", Children),
        f(6, "converted_type", Varint),
        f(7, "scale", Varint),
        f(8, "precision", Varint),
        f(9, "field_id", Varint),
        f(10, "logical_type", Struct(&LOGICAL_TYPE)),
    ],
};

const LOGICAL_TYPE: Schema = Schema {
    name: "LogicalType",
    fields: &[
        f(1, "STRING", Struct(&EMPTY)),
        f(2, "MAP", Struct(&EMPTY)),
        f(3, "LIST", Struct(&EMPTY)),
        f(4, "ENUM", Struct(&EMPTY)),
        f(5, "DECIMAL", Struct(&DECIMAL_TYPE)),
        f(6, "DATE", Struct(&EMPTY)),
        f(7, "TIME", Struct(&TIME_TYPE)),
        f(8, "TIMESTAMP", Struct(&TIME_TYPE)),
        f(10, "INTEGER", Struct(&INT_TYPE)),
        f(11, "UNKNOWN", Struct(&EMPTY)),
        f(12, "JSON", Struct(&EMPTY)),
        f(13, "BSON", Struct(&EMPTY)),
        f(14, "UUID", Struct(&EMPTY)),
        f(15, "FLOAT16", Struct(&EMPTY)),
        f(16, "VARIANT", Struct(&VARIANT_TYPE)),
        f(17, "GEOMETRY", Struct(&GEOMETRY_TYPE)),
        f(18, "GEOGRAPHY", Struct(&GEOGRAPHY_TYPE)),
        f(19, "FILE", Struct(&EMPTY)),
    ],
};

const DECIMAL_TYPE: Schema = Schema {
    name: "DecimalType",
    fields: &[f(1, "scale", Varint), f(2, "precision", Varint)],
};

/// `TimeType` and `TimestampType`, which have the same fields.
const TIME_TYPE: Schema = Schema {
    name: "TimeType",
    fields: &[
        f(1, "isAdjustedToUTC", Bool),
        f(2, "unit", Struct(&TIME_UNIT)),
    ],
};

const TIME_UNIT: Schema = Schema {
    name: "TimeUnit",
    fields: &[
        f(1, "MILLIS", Struct(&EMPTY)),
        f(2, "MICROS", Struct(&EMPTY)),
        f(3, "NANOS", Struct(&EMPTY)),
    ],
};

const INT_TYPE: Schema = Schema {
    name: "IntType",
    fields: &[f(1, "bitWidth", Byte), f(2, "isSigned", Bool)],
};

const VARIANT_TYPE: Schema = Schema {
    name: "VariantType",
    fields: &[f(1, "specification_version", Byte)],
};

const GEOMETRY_TYPE: Schema = Schema {
    name: "GeometryType",
    fields: &[f(1, "crs", Binary)],
};

const GEOGRAPHY_TYPE: Schema = Schema {
    name: "GeographyType",
    fields: &[f(1, "crs", Binary), f(2, "algorithm", Varint)],
};

const ROW_GROUP: Schema = Schema {
    name: "RowGroup",
    fields: &[
        f(1, "columns", List(&Struct(&COLUMN_CHUNK))),
        f(2, "total_byte_size", Varint),
        f(3, "num_rows", Varint),
        f(4, "sorting_columns", List(&Struct(&SORTING_COLUMN))),
        f(5, "file_offset", Varint),
        f(6, "total_compressed_size", Varint),
        f(7, "ordinal", Varint),
    ],
};

const SORTING_COLUMN: Schema = Schema {
    name: "SortingColumn",
    fields: &[
        f(1, "column_idx", Varint),
        f(2, "descending", Bool),
        f(3, "nulls_first", Bool),
    ],
};

const COLUMN_CHUNK: Schema = Schema {
    name: "ColumnChunk",
    fields: &[
        f(1, "file_path", Binary),
        f(2, "file_offset", Varint),
        f(3, "meta_data", Struct(&COLUMN_META_DATA)),
        f(4, "offset_index_offset", Varint),
        f(5, "offset_index_length", Varint),
        f(6, "column_index_offset", Varint),
        f(7, "column_index_length", Varint),
        f(8, "crypto_metadata", Struct(&COLUMN_CRYPTO_META_DATA)),
        f(9, "encrypted_column_metadata", Binary),
    ],
};

const COLUMN_META_DATA: Schema = Schema {
    name: "ColumnMetaData",
    fields: &[
        f(1, "type", Varint),
        f(2, "encodings", List(&Varint)),
        f(3, "path_in_schema", List(&Binary)),
        f(4, "codec", Varint),
        f(5, "num_values", Varint),
        f(6, "total_uncompressed_size", Varint),
        f(7, "total_compressed_size", Varint),
        f(8, "key_value_metadata", List(&Struct(&KEY_VALUE))),
        f(9, "data_page_offset", Varint),
        f(10, "index_page_offset", Varint),
        f(11, "dictionary_page_offset", Varint),
        f(12, "statistics", Struct(&STATISTICS)),
        f(13, "encoding_stats", List(&Struct(&PAGE_ENCODING_STATS))),
        f(14, "bloom_filter_offset", Varint),
        f(15, "bloom_filter_length", Varint),
        f(16, "size_statistics", Struct(&SIZE_STATISTICS)),
        f(17, "geospatial_statistics", Struct(&GEOSPATIAL_STATISTICS)),
    ],
};

const KEY_VALUE: Schema = Schema {
    name: "KeyValue",
    fields: &[f(1, "key", Binary), f(2, "value", Binary)],
};

const STATISTICS: Schema = Schema {
    name: "Statistics",
    fields: &[
        f(1, "max", Binary),
        f(2, "min", Binary),
        f(3, "null_count", Varint),
        f(4, "distinct_count", Varint),
        f(5, "max_value", Binary),
        f(6, "min_value", Binary),
        f(7, "is_max_value_exact", Bool),
        f(8, "is_min_value_exact", Bool),
        f(9, "nan_count", Varint),
    ],
};

const PAGE_ENCODING_STATS: Schema = Schema {
    name: "PageEncodingStats",
    fields: &[
        f(1, "page_type", Varint),
        f(2, "encoding", Varint),
        f(3, "count", Varint),
    ],
};

const SIZE_STATISTICS: Schema = Schema {
    name: "SizeStatistics",
    fields: &[
        f(1, "unencoded_byte_array_data_bytes", Varint),
        f(2, "repetition_level_histogram", List(&Varint)),
        f(3, "definition_level_histogram", List(&Varint)),
    ],
};

const GEOSPATIAL_STATISTICS: Schema = Schema {
    name: "GeospatialStatistics",
    fields: &[
        f(1, "bbox", Struct(&BOUNDING_BOX)),
        f(2, "geospatial_types", List(&Varint)),
    ],
};

const BOUNDING_BOX: Schema = Schema {
    name: "BoundingBox",
    fields: &[
        f(1, "xmin", Double),
        f(2, "xmax", Double),
        f(3, "ymin", Double),
        f(4, "ymax", Double),
        f(5, "zmin", Double),
        f(6, "zmax", Double),
        f(7, "mmin", Double),
        f(8, "mmax", Double),
    ],
};

const COLUMN_ORDER: Schema = Schema {
    name: "ColumnOrder",
    fields: &[
        f(1, "TYPE_ORDER", Struct(&EMPTY)),
        f(2, "IEEE_754_TOTAL_ORDER", Struct(&EMPTY)),
        f(3, "INT96_TIMESTAMP_ORDER", Struct(&EMPTY)),
    ],
};

const ENCRYPTION_ALGORITHM: Schema = Schema {
    name: "EncryptionAlgorithm",
    fields: &[
        f(1, "AES_GCM_V1", Struct(&AES_GCM)),
        f(2, "AES_GCM_CTR_V1", Struct(&AES_GCM)),
    ],
};

/// `AesGcmV1` and `AesGcmCtrV1`, which have the same fields.
const AES_GCM: Schema = Schema {
    name: "AesGcmV1",
    fields: &[
        f(1, "aad_prefix", Binary),
        f(2, "aad_file_unique", Binary),
        f(3, "supply_aad_prefix", Bool),
    ],
};

const COLUMN_CRYPTO_META_DATA: Schema = Schema {
    name: "ColumnCryptoMetaData",
    fields: &[
        f(1, "ENCRYPTION_WITH_FOOTER_KEY", Struct(&EMPTY)),
        f(
            2,
            "ENCRYPTION_WITH_COLUMN_KEY",
            Struct(&ENCRYPTION_WITH_COLUMN_KEY),
        ),
    ],
};

const ENCRYPTION_WITH_COLUMN_KEY: Schema = Schema {
    name: "EncryptionWithColumnKey",
    fields: &[
        f(1, "path_in_schema", List(&Binary)),
        f(2, "key_metadata", Binary),
    ],
};

/// A page's header: `PageHeader`.
pub const PAGE_HEADER: Schema = Schema {
    name: "PageHeader",
    fields: &[
        f(1, "type", Varint),
        f(2, "uncompressed_page_size", Varint),
        f(3, "compressed_page_size", Varint),
        f(4, "crc", Varint),
        f(5, "data_page_header", Struct(&DATA_PAGE_HEADER)),
        f(6, "index_page_header", Struct(&EMPTY)),
        f(7, "dictionary_page_header", Struct(&DICTIONARY_PAGE_HEADER)),
        f(8, "data_page_header_v2", Struct(&DATA_PAGE_HEADER_V2)),
    ],
};

const DATA_PAGE_HEADER: Schema = Schema {
    name: "DataPageHeader",
    fields: &[
        f(1, "num_values", Varint),
        f(2, "encoding", Varint),
        f(3, "definition_level_encoding", Varint),
        f(4, "repetition_level_encoding", Varint),
        f(5, "statistics", Struct(&STATISTICS)),
    ],
};

const DICTIONARY_PAGE_HEADER: Schema = Schema {
    name: "DictionaryPageHeader",
    fields: &[
        f(1, "num_values", Varint),
        f(2, "encoding", Varint),
        f(3, "is_sorted", Bool),
    ],
};

const DATA_PAGE_HEADER_V2: Schema = Schema {
    name: "DataPageHeaderV2",
    fields: &[
        f(1, "num_values", Varint),
        f(2, "num_nulls", Varint),
        f(3, "num_rows", Varint),
        f(4, "encoding", Varint),
        f(5, "definition_levels_byte_length", Varint),
        f(6, "repetition_levels_byte_length", Varint),
        f(7, "is_compressed", Bool),
        f(8, "statistics", Struct(&STATISTICS)),
    ],
};

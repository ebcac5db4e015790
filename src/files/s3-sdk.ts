/**
 * The parts of the AWS SDK that the S3 backend uses, in one module: the build makes it a file of
 * its own beside the server bundle (scripts/bundle.mjs), loaded when an S3 backend is first used,
 * so that the 1.2 MB of the SDK is not read and compiled at every start of a server that keeps its
 * files on disk.
 */
export { DeleteObjectCommand, GetObjectCommand, NoSuchKey, paginateListObjectsV2, S3Client } from '@aws-sdk/client-s3';
export { Upload } from '@aws-sdk/lib-storage';
